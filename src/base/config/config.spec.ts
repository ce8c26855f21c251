import { ConfigError } from './config.js';
import { loadConfig } from '../../app/config.js';
import { expectConfigRefused } from '../../../test/utils/fakes/config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.http).toEqual({
      port: 3000,
      host: '127.0.0.1',
      publicBaseUrl: 'http://localhost:3000',
      trustProxy: false,
      shutdownGraceMs: 10_000,
    });
    expect(c.log).toEqual({ level: 'info', format: null });
    expect(c.metrics).toEqual({ port: null, token: null });
    expect(c.audit).toEqual({ retentionDays: 365, purgeIntervalMs: 3_600_000 });
    expect(c.database.url).toBeNull();
    expect(c.bootstrap.adminEmail).toBe('admin@localhost');
    expect(c.auth.accessTokenTtlSeconds).toBe(43200);
  });

  it('names every bad variable in one error', () => {
    expectConfigRefused(
      {
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        BOOTSTRAP_ADMIN_PASSWORD: 'short',
      },
      'PORT',
      'DATABASE_URL must use',
      'KEY_ENCRYPTION_SECRET is required',
      'LOG_LEVEL',
      'BOOTSTRAP_ADMIN_PASSWORD',
    );
  });

  it('bounds every database wait by default, and refuses a client timeout below the server one', () => {
    expect(loadConfig({}).database.pool).toEqual({
      max: 20,
      connectTimeoutMs: 5_000,
      queryTimeoutMs: 15_000,
      statementTimeoutMs: 10_000,
      idleTimeoutMs: 30_000,
      keepAliveMs: 10_000,
    });
    expect(() =>
      loadConfig({ DATABASE_QUERY_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '2000' }),
    ).toThrow(/DATABASE_QUERY_TIMEOUT_MS must not be below DATABASE_STATEMENT_TIMEOUT_MS/);
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT_MS: '0' })).toThrow(/DATABASE_CONNECT_TIMEOUT_MS/);
  });

  it('operations: LOG_FORMAT, METRICS_TOKEN, METRICS_PORT, AUDIT_RETENTION_DAYS, SHUTDOWN_GRACE_MS', () => {
    const c = loadConfig({
      LOG_FORMAT: 'pretty',
      METRICS_TOKEN: 'a-metrics-token-of-24-ch',
      METRICS_PORT: '9464',
      AUDIT_RETENTION_DAYS: '30',
      SHUTDOWN_GRACE_MS: '0',
    });
    expect(c.log.format).toBe('pretty');
    expect(c.metrics).toEqual({ port: 9464, token: 'a-metrics-token-of-24-ch' });
    expect(c.audit.retentionDays).toBe(30);
    expect(c.http.shutdownGraceMs).toBe(0);
    expectConfigRefused(
      {
        LOG_FORMAT: 'xml',
        METRICS_TOKEN: 'short',
        METRICS_PORT: '70000',
        AUDIT_RETENTION_DAYS: '0',
      },
      'LOG_FORMAT',
      'METRICS_TOKEN',
      'METRICS_PORT',
      'AUDIT_RETENTION_DAYS',
    );
  });

  it('strips the trailing slash of PUBLIC_BASE_URL', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://auth.example.com/' }).http.publicBaseUrl).toBe(
      'https://auth.example.com',
    );
  });

  it('DNS_SERVERS: addresses with optional ports (the system resolvers when unset); DNS_TIMEOUT_MS', () => {
    expect(loadConfig({}).dns).toEqual({ servers: null, timeoutMs: 5_000 });
    expect(
      loadConfig({ DNS_SERVERS: '10.0.0.2, 127.0.0.1:5353,[::1]:53,2001:db8::1', DNS_TIMEOUT_MS: '500' }).dns,
    ).toEqual({ servers: ['10.0.0.2', '127.0.0.1:5353', '[::1]:53', '2001:db8::1'], timeoutMs: 500 });
    for (const bad of ['dns.example.com', '127.0.0.1:0', '127.0.0.1:70000', '[10.0.0.1]:53', ',', '1.2.3:53'])
      expect(() => loadConfig({ DNS_SERVERS: bad })).toThrow(/DNS_SERVERS must be a comma-separated list/);
    expect(() => loadConfig({ DNS_TIMEOUT_MS: '10' })).toThrow(/DNS_TIMEOUT_MS/);
  });

  describe('TRUST_PROXY', () => {
    const problemsOf = (value: string): string => {
      try {
        loadConfig({ TRUST_PROXY: value });
      } catch (e) {
        return (e as ConfigError).problems.join('\n');
      }
      return '';
    };

    it.each(['true', 'TRUE', 'yes'])('refuses %s (every hop trusted) with a message naming the fix', (v) => {
      expect(problemsOf(v)).toMatch(/TRUST_PROXY=.*every hop.*TRUST_PROXY=1.*TRUST_PROXY=10\.0\.0\.0\/8/);
    });

    it('takes a hop count', () => {
      expect(loadConfig({ TRUST_PROXY: '2' }).http.trustProxy).toBe(2);
      expect(loadConfig({ TRUST_PROXY: 'false' }).http.trustProxy).toBe(false);
      expect(loadConfig({ TRUST_PROXY: '0' }).http.trustProxy).toBe(false);
    });

    it('takes the proxies: addresses, CIDR ranges and the names Express knows', () => {
      expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,fd00::/8 ,loopback' }).http.trustProxy).toEqual(
        ['10.0.0.0/8', '192.0.2.7', 'fd00::/8', 'loopback'],
      );
    });

    it('names entries that are no address', () => {
      expect(problemsOf('10.0.0.0/8,proxy.internal')).toMatch(
        /TRUST_PROXY: "proxy.internal" is not an address/,
      );
      expect(problemsOf('10.0.0.0/40')).toMatch(/"10.0.0.0\/40"/);
      expect(problemsOf('99')).toMatch(/hop count/);
    });
  });
});
