import { randomBytes } from 'node:crypto';
import type { PgliteSource } from '../database/pglite-serial-driver.js';
import { envReader } from './env-reader.js';
import { loadMarketplaceConfig, type MarketplaceConfig } from '../marketplace/marketplace-config.js';
import { readTrustProxy, type TrustProxy } from './trust-proxy.js';
import { readDnsServers } from './dns-servers.js';
import { type FilesConfig, loadFilesConfig } from '../files/files-config.js';

/** Typed configuration, one namespace per concern. Built once from the environment by `loadConfig`. */
export interface AppConfig {
  /** shutdownGraceMs: how long a stop waits for requests in flight (SHUTDOWN_GRACE_MS, src/shutdown.ts). */
  http: {
    port: number;
    host: string;
    publicBaseUrl: string;
    trustProxy: TrustProxy;
    shutdownGraceMs: number;
  };
  database: {
    url: string | null;
    dataDir: string;
    /**
     * In-memory PGlite only (`DATA_DIR=memory://`): where the database comes from instead of a new empty one.
     * Never from the environment: the tests hand out databases reset to their migrated template here
     * (test/utils/pglite-pool.ts).
     */
    pglite?: PgliteSource;
    /** PostgreSQL only: the pool's bounds (docs/outages.md). A wait past one of them is a 503, not a hang. */
    pool: DatabasePoolConfig;
  };
  redis: { url: string | null };
  auth: {
    /** Secret that encrypts signing private keys at rest (AES-256-GCM); null: kept in the data dir (PGlite only). */
    keyEncryptionSecret: string | null;
    accessTokenTtlSeconds: number;
    loginTokenTtlSeconds: number;
    patMaxTtlSeconds: number;
    /** Lifetime of the temporary sign-in token (Temp-Auth-Token) while a second factor is owed. */
    tempTokenTtlSeconds: number;
    /**
     * How long after a password sign-in the person may change their account's factors (email, password,
     * second factors) without signing in again; a sign-in that passed a second factor may for its lifetime.
     */
    reauthWindowSeconds: number;
  };
  bootstrap: { adminEmail: string; adminPassword: string | null };
  mail: MailConfig;
  /** Password reset (src/passwords): how long a mailed reset link works. */
  passwords: { resetTtlSeconds: number };
  webhooks: WebhookConfig;
  /** Self-service registration (src/onboarding): on/off, the template of new domains, how long a link works. */
  registration: { enabled: boolean; templateDomainId: string | null; ttlSeconds: number };
  /** Domain status dates (src/system-domains/domain-schedule.worker.ts): how often passed dates are recorded. */
  domainSchedule: { intervalMs: number };
  /** Audit trail (src/audit): how long records are kept, how often the purge looks. */
  audit: { retentionDays: number; purgeIntervalMs: number };
  /** Prometheus metrics (src/metrics): a listener of their own and/or a bearer token; neither: not served. */
  metrics: { port: number | null; token: string | null };
  /** Cloud-marketplace signup (src/marketplace/marketplace-config.ts): per cloud, issuer, audience and keys. */
  marketplace: MarketplaceConfig;
  /** Storages, uploads and keyframes (src/files/files-config.ts). */
  files: FilesConfig;
  /**
   * Domain verification's TXT lookups (src/identity-providers/dns-txt.ts): the resolvers (null: the system's)
   * and how long one lookup may take in all.
   */
  dns: { servers: string[] | null; timeoutMs: number };
  /** LOG_FORMAT: json, pretty, or unset (pretty on a terminal, JSON otherwise: see logFormat in main.ts). */
  log: { level: string; format: 'json' | 'pretty' | null };
  /** Per-account guessing defence (src/login/guessing-defence.ts); separate from rate limiting. */
  lockout: {
    /** Failed attempts at one factor before the account's lock for that factor starts. */
    threshold: number;
    /** The first lock; it doubles with every further failure up to maxSeconds. */
    baseSeconds: number;
    maxSeconds: number;
    /** The count is forgotten after this long without a failure. */
    resetSeconds: number;
  };
  rateLimit: {
    enabled: boolean;
    /** Prefix of the buckets' Redis keys: deployments that share a Redis keep theirs apart with it. */
    namespace: string;
    /** burst = bucket capacity, perSecond = drain rate; see common/rate-limit/rate-limiter.ts */
    budgets: Record<
      'token' | 'user' | 'signin' | 'oauth' | 'anonymous' | 'registration',
      { burst: number; perSecond: number }
    >;
  };
}

/**
 * Defaults of the rate-limit budgets: `token` is the spec's (50/s sustained, 1000 in any 20 s), and so is
 * `user`, the same limit over all of one user's tokens (minting more tokens buys no more requests).
 */
export const RATE_LIMIT_DEFAULTS = {
  token: { burst: 1000, perSecond: 50, env: 'RATE_LIMIT' },
  user: { burst: 1000, perSecond: 50, env: 'RATE_LIMIT_USER' },
  signin: { burst: 30, perSecond: 1, env: 'RATE_LIMIT_SIGNIN' },
  oauth: { burst: 1000, perSecond: 50, env: 'RATE_LIMIT_OAUTH' },
  anonymous: { burst: 300, perSecond: 20, env: 'RATE_LIMIT_ANONYMOUS' },
  registration: { burst: 10, perSecond: 10 / 3600, env: 'RATE_LIMIT_REGISTRATION' },
} as const;

/** The PostgreSQL pool (database/bounded-client.ts): its size and how long each wait may last. */
export interface DatabasePoolConfig {
  max: number;
  /** Waiting for a connection: opening one, or for a busy pool to free one (pg-pool connectionTimeoutMillis). */
  connectTimeoutMs: number;
  /** One query's answer, measured by the client: covers a network that stops answering (pg query_timeout). */
  queryTimeoutMs: number;
  /** One statement, enforced by the server (statement_timeout); below queryTimeoutMs so the server cancels first. */
  statementTimeoutMs: number;
  /** An idle connection is closed after this long (pg-pool idleTimeoutMillis). */
  idleTimeoutMs: number;
  /** TCP keepalive: first probe after this long idle (a dead peer is found even between queries). */
  keepAliveMs: number;
}

/** Mail delivery (src/mail): where mail goes, the sender, the worker's pace and the retry schedule. */
export interface MailConfig {
  /** smtp:// or smtps://; null: every mail is written as an .eml file under DATA_DIR/mail/ instead. */
  smtpUrl: string | null;
  /** The From address of every mail. */
  from: string;
  pollIntervalMs: number;
  timeoutMs: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Attempts after which a mail is given up (FAILED); a 5xx answer gives it up at once. */
  maxAttempts: number;
  /** Link mails of one kind to one recipient at most, per window (MailService.recipientAllows). */
  recipientLimit: number;
  recipientWindowSeconds: number;
}

/** Webhook delivery (src/webhooks): the SSRF rule, the worker's pace and the retry and disable schedule. */
export interface WebhookConfig {
  /** Deliver to private, loopback and other non-public addresses (tests, trusted networks only). */
  allowPrivate: boolean;
  /** How often each instance's worker looks for due deliveries (a commit that recorded events nudges it). */
  pollIntervalMs: number;
  /** One delivery attempt's limit: connect, send, and the response. */
  timeoutMs: number;
  /** Backoff after failed attempt n: base * 2^(n-1), ±25% jitter, capped at retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** A webhook failing continuously this long becomes DISABLED; a delivery is given up this long after queuing. */
  disableAfterSeconds: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
export const TEN_YEARS_SECONDS = 10 * 365 * 24 * 3600 + 2 * 24 * 3600; // ten calendar years, leap days included

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads and validates every variable, collecting all problems before failing (one message names them all). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const { str, int, num, bool, url } = envReader(env, problems);

  const port = int('PORT', 3000, 0, 65535);
  const host = str('HOST') ?? '127.0.0.1';
  const publicBaseUrl = (
    url('PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port || 3000}`
  ).replace(/\/+$/, '');
  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = url('REDIS_URL', ['redis:', 'rediss:']);
  const keyEncryptionSecret = str('KEY_ENCRYPTION_SECRET');
  if (keyEncryptionSecret !== null && keyEncryptionSecret.length < 32) {
    problems.push('KEY_ENCRYPTION_SECRET must be at least 32 characters');
  }
  if (databaseUrl !== null && keyEncryptionSecret === null) {
    problems.push('KEY_ENCRYPTION_SECRET is required with DATABASE_URL (instances must share it)');
  }
  const pool: DatabasePoolConfig = {
    max: int('DATABASE_POOL_MAX', 20, 1, 1000),
    connectTimeoutMs: int('DATABASE_CONNECT_TIMEOUT_MS', 5_000, 50, 600_000),
    queryTimeoutMs: int('DATABASE_QUERY_TIMEOUT_MS', 15_000, 50, 3_600_000),
    statementTimeoutMs: int('DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 50, 3_600_000),
    idleTimeoutMs: int('DATABASE_IDLE_TIMEOUT_MS', 30_000, 100, 3_600_000),
    keepAliveMs: int('DATABASE_KEEPALIVE_MS', 10_000, 1_000, 3_600_000),
  };
  if (pool.queryTimeoutMs < pool.statementTimeoutMs) {
    problems.push('DATABASE_QUERY_TIMEOUT_MS must not be below DATABASE_STATEMENT_TIMEOUT_MS');
  }
  const adminEmail = str('BOOTSTRAP_ADMIN_EMAIL') ?? 'admin@localhost';
  if (!/^[^@\s]+@[^@\s]+$/.test(adminEmail)) problems.push('BOOTSTRAP_ADMIN_EMAIL must be an email address');
  const adminPassword = str('BOOTSTRAP_ADMIN_PASSWORD');
  if (adminPassword !== null && adminPassword.length < 8) {
    problems.push('BOOTSTRAP_ADMIN_PASSWORD must be at least 8 characters');
  }
  const budget = (name: keyof typeof RATE_LIMIT_DEFAULTS) => {
    const d = RATE_LIMIT_DEFAULTS[name];
    return {
      burst: int(`${d.env}_BURST`, d.burst, 1, 1_000_000_000),
      perSecond: num(`${d.env}_PER_SECOND`, d.perSecond, 0.001, 1_000_000_000),
    };
  };
  const registrationTemplate = str('REGISTRATION_TEMPLATE_DOMAIN_ID');
  if (
    registrationTemplate !== null &&
    !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(registrationTemplate)
  ) {
    problems.push('REGISTRATION_TEMPLATE_DOMAIN_ID must be a UUID');
  }
  const level = str('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(level)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const webhooks: WebhookConfig = {
    allowPrivate: bool('WEBHOOK_ALLOW_PRIVATE', false),
    pollIntervalMs: int('WEBHOOK_POLL_INTERVAL_MS', 250, 10, 60_000),
    timeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    retryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 5_000, 10, 3_600_000),
    retryMaxMs: int('WEBHOOK_RETRY_MAX_MS', 3_600_000, 10, 86_400_000),
    disableAfterSeconds: int('WEBHOOK_DISABLE_AFTER_SECONDS', 86_400, 1, 30 * 86_400),
  };
  const lockout = {
    threshold: int('LOCKOUT_THRESHOLD', 5, 1, 1000),
    baseSeconds: int('LOCKOUT_BASE_SECONDS', 60, 1, 86_400),
    maxSeconds: int('LOCKOUT_MAX_SECONDS', 3600, 1, 7 * 86_400),
    resetSeconds: int('LOCKOUT_RESET_SECONDS', 86_400, 60, 30 * 86_400),
  };
  if (lockout.maxSeconds < lockout.baseSeconds) {
    problems.push('LOCKOUT_MAX_SECONDS must not be below LOCKOUT_BASE_SECONDS');
  }
  if (webhooks.retryMaxMs < webhooks.retryBaseMs) {
    problems.push('WEBHOOK_RETRY_MAX_MS must not be below WEBHOOK_RETRY_BASE_MS');
  }

  const mailFrom = str('MAIL_FROM') ?? `Portcullis <no-reply@${new URL(publicBaseUrl).hostname}>`;
  if (!/^[^@\s<>]+@[^@\s<>]+$|^[^<>]*<[^@\s<>]+@[^@\s<>]+>$/.test(mailFrom.trim()))
    problems.push('MAIL_FROM must be an address, or "Name <address>"');
  const mail: MailConfig = {
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    from: mailFrom.trim(),
    pollIntervalMs: int('MAIL_POLL_INTERVAL_MS', 1_000, 10, 60_000),
    timeoutMs: int('MAIL_TIMEOUT_MS', 30_000, 100, 300_000),
    retryBaseMs: int('MAIL_RETRY_BASE_MS', 30_000, 10, 3_600_000),
    retryMaxMs: int('MAIL_RETRY_MAX_MS', 3_600_000, 10, 86_400_000),
    maxAttempts: int('MAIL_MAX_ATTEMPTS', 10, 1, 100),
    recipientLimit: int('MAIL_RECIPIENT_LIMIT', 5, 1, 1000),
    recipientWindowSeconds: int('MAIL_RECIPIENT_WINDOW_SECONDS', 900, 1, 86_400),
  };
  if (mail.retryMaxMs < mail.retryBaseMs)
    problems.push('MAIL_RETRY_MAX_MS must not be below MAIL_RETRY_BASE_MS');

  const config: AppConfig = {
    http: {
      port,
      host,
      publicBaseUrl,
      trustProxy: readTrustProxy(str('TRUST_PROXY'), problems),
      shutdownGraceMs: int('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    },
    database: { url: databaseUrl, dataDir: str('DATA_DIR') ?? './data', pool },
    redis: { url: redisUrl },
    auth: {
      keyEncryptionSecret,
      accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL', 12 * 3600, 60, 30 * 24 * 3600),
      loginTokenTtlSeconds: int('LOGIN_TOKEN_TTL', 12 * 3600, 60, 30 * 24 * 3600),
      patMaxTtlSeconds: TEN_YEARS_SECONDS,
      tempTokenTtlSeconds: int('TEMP_TOKEN_TTL', 300, 60, 3600),
      reauthWindowSeconds: int('REAUTH_WINDOW', 900, 60, 24 * 3600),
    },
    bootstrap: { adminEmail: adminEmail.toLowerCase(), adminPassword },
    mail,
    passwords: { resetTtlSeconds: int('PASSWORD_RESET_TTL', 3600, 300, 7 * 24 * 3600) },
    webhooks,
    registration: {
      enabled: bool('REGISTRATION_ENABLED', true),
      templateDomainId: registrationTemplate?.toLowerCase() ?? null,
      ttlSeconds: int('REGISTRATION_TTL_SECONDS', 86_400, 300, 30 * 86_400),
    },
    domainSchedule: { intervalMs: int('DOMAIN_SCHEDULE_INTERVAL_MS', 15_000, 10, 3_600_000) },
    audit: {
      retentionDays: int('AUDIT_RETENTION_DAYS', 365, 1, 36_500),
      purgeIntervalMs: int('AUDIT_PURGE_INTERVAL_MS', 3_600_000, 10, 86_400_000),
    },
    metrics: readMetricsConfig(str, int, problems),
    marketplace: loadMarketplaceConfig(env, problems),
    files: loadFilesConfig(env, problems, str('DATA_DIR') ?? './data'),
    dns: {
      servers: readDnsServers(str('DNS_SERVERS'), problems),
      timeoutMs: int('DNS_TIMEOUT_MS', 5_000, 100, 60_000),
    },
    log: { level, format: readLogFormat(str('LOG_FORMAT'), problems) },
    lockout,
    rateLimit: {
      enabled: bool('RATE_LIMIT_ENABLED', true),
      namespace: str('RATE_LIMIT_NAMESPACE') ?? 'portcullis',
      budgets: {
        token: budget('token'),
        user: budget('user'),
        signin: budget('signin'),
        oauth: budget('oauth'),
        anonymous: budget('anonymous'),
        registration: budget('registration'),
      },
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function readLogFormat(v: string | null, problems: string[]): 'json' | 'pretty' | null {
  if (v === null || v === 'json' || v === 'pretty') return v;
  problems.push('LOG_FORMAT must be json or pretty');
  return null;
}

/** METRICS_PORT (a listener of its own) and METRICS_TOKEN (bearer on /metrics); at least one to serve them. */
function readMetricsConfig(
  str: (name: string) => string | null,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): AppConfig['metrics'] {
  const token = str('METRICS_TOKEN');
  if (token !== null && token.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');
  const port = str('METRICS_PORT') === null ? null : int('METRICS_PORT', 0, 0, 65535);
  return { port, token };
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
