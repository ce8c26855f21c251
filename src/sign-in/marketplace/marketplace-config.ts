import { configNamespace } from '../../base/config/namespace.js';
import { envReader } from '../../base/config/env-reader.js';

/**
 * Marketplace configuration (src/marketplace): one entry per cloud, read from
 * `MARKETPLACE_<CLOUD>_ISSUER`, `_AUDIENCE`, and exactly one of `_JWKS_URL`, `_PUBLIC_KEY_FILE` (a PEM file:
 * SPKI public key or X.509 certificate) or `_PUBLIC_KEY` (the PEM itself); `_ALGORITHMS` optionally narrows
 * the accepted asymmetric algorithms (default RS256,ES256). The cloud's name is `<CLOUD>` in lower case
 * (`MARKETPLACE_VENDOR_A_ISSUER` → `vendor_a`, the token field `x-vendor_a-marketplace-token`).
 * Kept apart from config.ts, which calls `loadMarketplaceConfig`; imports nothing from it.
 */
export interface MarketplaceCloudConfig {
  cloud: string;
  issuer: string;
  audience: string;
  jwksUrl: string | null;
  publicKeyFile: string | null;
  publicKeyPem: string | null;
  algorithms: string[];
}

export interface MarketplaceConfig {
  clouds: Record<string, MarketplaceCloudConfig>;
  /** How long the signup nonce handed back for a verified marketplace token works. */
  nonceTtlSeconds: number;
  /** Clock skew tolerated on the marketplace token's exp/nbf/iat. */
  clockToleranceSeconds: number;
}

/** Asymmetric algorithms only: never `none`, never HS* (a public key must not become an HMAC secret). */
export const MARKETPLACE_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

const KEY = /^MARKETPLACE_([A-Z0-9_]+?)_(ISSUER|AUDIENCE|JWKS_URL|PUBLIC_KEY_FILE|PUBLIC_KEY|ALGORITHMS)$/;
const SETTINGS = new Set(['NONCE_TTL', 'CLOCK_TOLERANCE']);

export function loadMarketplaceConfig(env: NodeJS.ProcessEnv, problems: string[]): MarketplaceConfig {
  const { str, int } = envReader(env, problems);
  const names = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    const m = KEY.exec(name);
    if (m && value !== undefined && value.trim() !== '' && !SETTINGS.has(m[1])) names.add(m[1]);
  }
  const clouds: Record<string, MarketplaceCloudConfig> = {};
  for (const upper of [...names].sort()) {
    const p = `MARKETPLACE_${upper}`;
    const cloud = upper.toLowerCase();
    const issuer = str(`${p}_ISSUER`);
    const audience = str(`${p}_AUDIENCE`);
    const jwksUrl = str(`${p}_JWKS_URL`);
    const publicKeyFile = str(`${p}_PUBLIC_KEY_FILE`);
    const publicKeyPem = str(`${p}_PUBLIC_KEY`);
    const before = problems.length;
    if (issuer === null) problems.push(`${p}_ISSUER is required to configure marketplace ${cloud}`);
    if (audience === null) problems.push(`${p}_AUDIENCE is required to configure marketplace ${cloud}`);
    const keySources = [jwksUrl, publicKeyFile, publicKeyPem].filter((v) => v !== null).length;
    if (keySources !== 1) {
      problems.push(
        `marketplace ${cloud} needs exactly one of ${p}_JWKS_URL, ${p}_PUBLIC_KEY_FILE, ${p}_PUBLIC_KEY`,
      );
    }
    if (jwksUrl !== null) {
      try {
        const u = new URL(jwksUrl);
        if (u.protocol !== 'https:' && u.protocol !== 'http:') {
          problems.push(`${p}_JWKS_URL must use https: or http:`);
        }
      } catch {
        problems.push(`${p}_JWKS_URL must be a URL`);
      }
    }
    const algorithms = (str(`${p}_ALGORITHMS`) ?? 'RS256,ES256')
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
    const bad = algorithms.filter((a) => !(MARKETPLACE_ALGORITHMS as readonly string[]).includes(a));
    if (bad.length > 0 || algorithms.length === 0) {
      problems.push(`${p}_ALGORITHMS must list some of ${MARKETPLACE_ALGORITHMS.join(', ')}`);
    }
    if (problems.length > before) continue;
    clouds[cloud] = {
      cloud,
      issuer: issuer as string,
      audience: audience as string,
      jwksUrl,
      publicKeyFile,
      publicKeyPem,
      algorithms,
    };
  }
  return {
    clouds,
    nonceTtlSeconds: int('MARKETPLACE_NONCE_TTL', 3600, 60, 7 * 24 * 3600),
    clockToleranceSeconds: int('MARKETPLACE_CLOCK_TOLERANCE', 30, 0, 300),
  };
}

export const MARKETPLACE_CONFIG = configNamespace('marketplace', (env, problems) =>
  loadMarketplaceConfig(env, problems),
);
