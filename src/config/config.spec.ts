import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({});
    expect(c.http).toEqual({
      port: 3000,
      host: '127.0.0.1',
      publicBaseUrl: 'http://localhost:3000',
      trustProxy: false,
    });
    expect(c.database.url).toBeNull();
    expect(c.bootstrap.adminEmail).toBe('admin@localhost');
    expect(c.auth.accessTokenTtlSeconds).toBe(43200);
  });

  it('names every bad variable in one error', () => {
    let err: unknown;
    try {
      loadConfig({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        BOOTSTRAP_ADMIN_PASSWORD: 'short',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.join('\n');
    expect(problems).toMatch(/PORT/);
    expect(problems).toMatch(/DATABASE_URL must use/);
    expect(problems).toMatch(/KEY_ENCRYPTION_SECRET is required/);
    expect(problems).toMatch(/LOG_LEVEL/);
    expect(problems).toMatch(/BOOTSTRAP_ADMIN_PASSWORD/);
  });

  it('strips the trailing slash of PUBLIC_BASE_URL', () => {
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://auth.example.com/' }).http.publicBaseUrl).toBe(
      'https://auth.example.com',
    );
  });
});
