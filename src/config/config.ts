import { randomBytes } from 'node:crypto';

/** Typed configuration, one namespace per concern. Built once from the environment by `loadConfig`. */
export interface AppConfig {
  http: { port: number; host: string; publicBaseUrl: string; trustProxy: boolean };
  database: { url: string | null; dataDir: string };
  redis: { url: string | null };
  auth: {
    /** Secret that encrypts signing private keys at rest (AES-256-GCM); null: kept in the data dir (PGlite only). */
    keyEncryptionSecret: string | null;
    accessTokenTtlSeconds: number;
    loginTokenTtlSeconds: number;
    patMaxTtlSeconds: number;
  };
  bootstrap: { adminEmail: string; adminPassword: string | null };
  mail: { smtpUrl: string | null };
  log: { level: string };
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
  const str = (name: string): string | null => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  const int = (name: string, def: number, min: number, max: number): number => {
    const v = str(name);
    if (v === null) return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${v}")`);
      return def;
    }
    return n;
  };
  const bool = (name: string, def: boolean): boolean => {
    const v = str(name);
    if (v === null) return def;
    if (['1', 'true', 'yes'].includes(v.toLowerCase())) return true;
    if (['0', 'false', 'no'].includes(v.toLowerCase())) return false;
    problems.push(`${name} must be true or false (got "${v}")`);
    return def;
  };
  const url = (name: string, protocols: string[]): string | null => {
    const v = str(name);
    if (v === null) return null;
    try {
      const u = new URL(v);
      if (!protocols.includes(u.protocol))
        problems.push(`${name} must use ${protocols.join(' or ')} (got "${u.protocol}")`);
    } catch {
      problems.push(`${name} must be a URL`);
    }
    return v;
  };

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
  const adminEmail = str('BOOTSTRAP_ADMIN_EMAIL') ?? 'admin@localhost';
  if (!/^[^@\s]+@[^@\s]+$/.test(adminEmail)) problems.push('BOOTSTRAP_ADMIN_EMAIL must be an email address');
  const adminPassword = str('BOOTSTRAP_ADMIN_PASSWORD');
  if (adminPassword !== null && adminPassword.length < 8) {
    problems.push('BOOTSTRAP_ADMIN_PASSWORD must be at least 8 characters');
  }
  const level = str('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(level)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);

  const config: AppConfig = {
    http: { port, host, publicBaseUrl, trustProxy: bool('TRUST_PROXY', false) },
    database: { url: databaseUrl, dataDir: str('DATA_DIR') ?? './data' },
    redis: { url: redisUrl },
    auth: {
      keyEncryptionSecret,
      accessTokenTtlSeconds: int('ACCESS_TOKEN_TTL', 12 * 3600, 60, 30 * 24 * 3600),
      loginTokenTtlSeconds: int('LOGIN_TOKEN_TTL', 12 * 3600, 60, 30 * 24 * 3600),
      patMaxTtlSeconds: TEN_YEARS_SECONDS,
    },
    bootstrap: { adminEmail: adminEmail.toLowerCase(), adminPassword },
    mail: { smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']) },
    log: { level },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
