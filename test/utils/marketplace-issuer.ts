import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

type Key = Awaited<ReturnType<typeof generateKeyPair>>;

export interface MintOptions {
  /** Claims to set or override; `undefined` removes a default claim. */
  claims?: Record<string, unknown>;
  /** Seconds from now; negative: already expired. Default 300. */
  expiresIn?: number;
  alg?: 'RS256' | 'ES256';
  /** Sign with a key the marketplace does not publish. */
  foreignKey?: boolean;
}

/**
 * A fake marketplace for the tests: its own RS256 and ES256 key pairs, a JWKS served from a local HTTP
 * server (`jwksUrl`), the RSA public key as a PEM file (`publicKeyFile`), and `mint()` for tokens with the
 * claims the service reads (iss, aud, exp, iat, jti, sub = customer id, entitlement_id).
 */
export class MarketplaceIssuer {
  readonly issuer: string;
  readonly audience = 'portcullis-test';
  jwksUrl = '';
  publicKeyFile = '';
  /** The RSA public key's SPKI DER bytes (what an HS256 confusion attack would use as the HMAC secret). */
  publicKeyPem = '';
  private rsa!: Key;
  private ec!: Key;
  private foreign!: Key;
  private server!: Server;
  private dir = '';
  /** How often the JWKS was fetched. */
  fetches = 0;

  constructor(name: string) {
    this.issuer = `https://marketplace.example/${name}`;
  }

  async start(): Promise<this> {
    this.rsa = await generateKeyPair('RS256', { extractable: true });
    this.ec = await generateKeyPair('ES256', { extractable: true });
    this.foreign = await generateKeyPair('RS256', { extractable: true });
    const jwks = {
      keys: [
        { ...(await exportJWK(this.rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
        { ...(await exportJWK(this.ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' },
      ] as JWK[],
    };
    this.server = createServer((_req, res) => {
      this.fetches += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.jwksUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/jwks.json`;
    this.publicKeyPem = await exportSPKI(this.rsa.publicKey);
    this.dir = mkdtempSync(join(tmpdir(), 'marketplace-'));
    this.publicKeyFile = join(this.dir, 'public.pem');
    writeFileSync(this.publicKeyFile, this.publicKeyPem);
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Env for createTestApp: this marketplace as `cloud`, keys from the JWKS URL (or the PEM file). */
  env(cloud: string, keys: 'jwks' | 'file' = 'jwks'): Record<string, string> {
    const p = `MARKETPLACE_${cloud.toUpperCase()}`;
    return {
      [`${p}_ISSUER`]: this.issuer,
      [`${p}_AUDIENCE`]: this.audience,
      ...(keys === 'jwks'
        ? { [`${p}_JWKS_URL`]: this.jwksUrl }
        : { [`${p}_PUBLIC_KEY_FILE`]: this.publicKeyFile }),
    };
  }

  /** A signed marketplace token; by default valid, with a fresh jti, customer and entitlement. */
  async mint(o: MintOptions = {}): Promise<string> {
    const alg = o.alg ?? 'RS256';
    const now = Math.floor(Date.now() / 1000);
    const claims: JWTPayload = {
      iss: this.issuer,
      aud: this.audience,
      iat: now,
      exp: now + (o.expiresIn ?? 300),
      jti: randomUUID(),
      sub: `customer-${randomUUID().slice(0, 8)}`,
      entitlement_id: `entitlement-${randomUUID().slice(0, 8)}`,
    };
    for (const [k, v] of Object.entries(o.claims ?? {})) {
      if (v === undefined) delete claims[k];
      else claims[k] = v;
    }
    const key = o.foreignKey ? this.foreign : alg === 'ES256' ? this.ec : this.rsa;
    return new SignJWT(claims)
      .setProtectedHeader({ alg, kid: o.foreignKey ? 'rsa-1' : alg === 'ES256' ? 'ec-1' : 'rsa-1' })
      .sign(key.privateKey);
  }
}

/** base64url without padding. */
export const b64url = (v: string | Buffer): string => Buffer.from(v).toString('base64url');

/** An unsigned token (`alg: none`) with the given claims. */
export function unsignedToken(claims: Record<string, unknown>): string {
  return `${b64url(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}.`;
}
