import type { ConfigOf } from '../../base/config/namespace.js';
import { MARKETPLACE_CONFIG } from './marketplace-config.js';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { Clock } from '../../base/common/clock.js';
import type { MarketplaceCloudConfig } from './marketplace-config.js';
import { MarketplaceErrors } from './marketplace.errors.js';

/** What a verified marketplace token says: who bought (customer), what (entitlement), and its replay key. */
export interface MarketplaceClaims {
  cloud: string;
  jti: string;
  customerId: string;
  entitlementId: string;
  expires: Date;
}

type KeySource = JWTVerifyGetKey | KeyObject;

/** Longest claim value kept (customer and entitlement ids, jti). */
const MAX_CLAIM = 256;

/** jose, loaded on first use: most deployments sell through no marketplace (0.8 MB of heap otherwise). */
let joseModule: Promise<typeof import('jose')> | undefined;
const jose = () => (joseModule ??= import('jose'));

/**
 * Verifies a marketplace's JWT against that cloud's configured issuer, audience and keys (a JWKS URL,
 * fetched and cached by jose with a cooldown, or a PEM public key / certificate). Algorithms are the cloud's
 * configured asymmetric list only (never `none` or HS*), `exp` and `jti` are required, `nbf`/`iat` honoured
 * with a small clock tolerance; claims: `sub` = the marketplace customer id, `entitlement_id` = the
 * entitlement id (strings). Every failure is one 400 `Invalid marketplace token` (details to the debug log).
 */
@Injectable()
export class MarketplaceTokenVerifier {
  private readonly logger = new Logger(MarketplaceTokenVerifier.name);
  private readonly keys = new Map<string, Promise<KeySource>>();

  constructor(
    @Inject(MARKETPLACE_CONFIG.token) private readonly marketplaceConfig: ConfigOf<typeof MARKETPLACE_CONFIG>,
    private readonly clock: Clock,
  ) {}

  isConfigured(cloud: string): boolean {
    return Object.hasOwn(this.marketplaceConfig.clouds, cloud);
  }

  /** The cloud's configuration, or the 400 naming it when it has none. */
  cloudConfig(cloud: string): MarketplaceCloudConfig {
    const c = Object.hasOwn(this.marketplaceConfig.clouds, cloud)
      ? this.marketplaceConfig.clouds[cloud]
      : undefined;
    if (!c) throw MarketplaceErrors.NOT_CONFIGURED(cloud.slice(0, 64));
    return c;
  }

  async verify(cloud: string, token: string): Promise<MarketplaceClaims> {
    const c = this.cloudConfig(cloud);
    const key = await this.key(c); // a key that cannot be loaded is the operator's problem: a 500, logged
    const { errors: joseErrors, jwtVerify } = await jose();
    let payload: JWTPayload;
    try {
      const options = {
        issuer: c.issuer,
        audience: c.audience,
        algorithms: c.algorithms,
        clockTolerance: this.marketplaceConfig.clockToleranceSeconds,
        requiredClaims: ['exp', 'jti', 'sub'],
        currentDate: this.clock.now(),
      };
      // two calls, so each gets its own overload (a key set or a single key)
      payload =
        typeof key === 'function'
          ? (await jwtVerify(token, key, options)).payload
          : (await jwtVerify(token, key, options)).payload;
    } catch (e) {
      // the marketplace's key set could not be had (unreachable, timeout, not 200, not a JWKS): 503, not the
      // buyer's fault; every other JOSE error (subclasses) is about the token
      const keysUnavailable =
        !(e instanceof joseErrors.JOSEError) ||
        e.constructor === joseErrors.JOSEError ||
        e instanceof joseErrors.JWKSTimeout ||
        e instanceof joseErrors.JWKSInvalid;
      if (keysUnavailable && typeof key === 'function') {
        this.logger.warn(`marketplace ${cloud}: its key set is unavailable (${(e as Error).message})`);
        throw MarketplaceErrors.KEYS_UNAVAILABLE(cloud);
      }
      if (e instanceof joseErrors.JOSEError) {
        this.logger.debug(`marketplace ${cloud} token refused: ${e.message}`);
        throw MarketplaceErrors.TOKEN_INVALID();
      }
      throw e;
    }
    const str = (v: unknown): string | null =>
      typeof v === 'string' && v.length > 0 && v.length <= MAX_CLAIM ? v : null;
    const jti = str(payload.jti);
    const customerId = str(payload.sub);
    const entitlementId = str(payload.entitlement_id);
    if (jti === null || customerId === null || entitlementId === null || payload.exp === undefined) {
      this.logger.debug(`marketplace ${cloud} token refused: a claim is missing or malformed`);
      throw MarketplaceErrors.TOKEN_INVALID();
    }
    return { cloud, jti, customerId, entitlementId, expires: new Date(payload.exp * 1000) };
  }

  /** The cloud's key source, built once (a failed PEM load is retried next time). */
  private key(c: MarketplaceCloudConfig): Promise<KeySource> {
    let k = this.keys.get(c.cloud);
    if (!k) {
      k = this.load(c);
      this.keys.set(c.cloud, k);
      k.catch(() => this.keys.delete(c.cloud));
    }
    return k;
  }

  private async load(c: MarketplaceCloudConfig): Promise<KeySource> {
    if (c.jwksUrl !== null) {
      const { createRemoteJWKSet } = await jose();
      return createRemoteJWKSet(new URL(c.jwksUrl), {
        timeoutDuration: 5_000,
        cooldownDuration: 30_000,
        cacheMaxAge: 600_000,
      });
    }
    const pem = c.publicKeyPem ?? (await readFile(c.publicKeyFile as string, 'utf8'));
    try {
      const key = createPublicKey(pem.replace(/\\n/g, '\n'));
      if (key.type !== 'public') throw new TypeError('not a public key');
      return key;
    } catch (e) {
      this.logger.error(`marketplace ${c.cloud}: the configured public key cannot be read`);
      throw e;
    }
  }
}
