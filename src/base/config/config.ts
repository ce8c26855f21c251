import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { envReader } from './env-reader.js';
import { readTrustProxy, type TrustProxy } from './trust-proxy.js';

/**
 * The base settings every layer may read (APP_CONFIG): the service's address, the database, Redis, the tokens'
 * lifetimes, logging and rate limiting. A feature's own settings are a namespace of its own
 * (base/config/namespace.ts), declared beside the feature and listed by the app (src/app/config.ts), which
 * loads them all with these in one pass.
 */
export interface BaseConfig {
  /** shutdownGraceMs: how long a stop waits for requests in flight (SHUTDOWN_GRACE_MS, src/app/shutdown.ts). */
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
  /** LOG_FORMAT: json, pretty, or unset (pretty on a terminal, JSON otherwise: see logFormat in main.ts). */
  log: { level: string; format: 'json' | 'pretty' | null };
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

/**
 * Where an in-memory database comes from and goes back to, instead of one opened for the pool and closed with
 * it: the tests hand out databases already reset to their migrated template (test/utils/pglite-pool.ts).
 */
export interface PgliteSource {
  open(): Promise<PGlite>;
  close(db: PGlite): Promise<void>;
}

/** The loaded configuration: BaseConfig, and each feature's namespace under its key (src/app/config.ts). */
export const APP_CONFIG = Symbol('APP_CONFIG');
export const TEN_YEARS_SECONDS = 10 * 365 * 24 * 3600 + 2 * 24 * 3600; // ten calendar years, leap days included

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Reads and checks the base variables; a bad one is pushed onto `problems` (the app's loadConfig fails once,
 * naming every bad variable of the base and of every feature's namespace).
 */
export function readBaseConfig(env: NodeJS.ProcessEnv, problems: string[]): BaseConfig {
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
  const budget = (name: keyof typeof RATE_LIMIT_DEFAULTS) => {
    const d = RATE_LIMIT_DEFAULTS[name];
    return {
      burst: int(`${d.env}_BURST`, d.burst, 1, 1_000_000_000),
      perSecond: num(`${d.env}_PER_SECOND`, d.perSecond, 0.001, 1_000_000_000),
    };
  };
  const level = str('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(level)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  return {
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
    log: { level, format: readLogFormat(str('LOG_FORMAT'), problems) },
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
}

function readLogFormat(v: string | null, problems: string[]): 'json' | 'pretty' | null {
  if (v === null || v === 'json' || v === 'pretty') return v;
  problems.push('LOG_FORMAT must be json or pretty');
  return null;
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
