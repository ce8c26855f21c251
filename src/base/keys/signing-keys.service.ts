import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomUUID,
  sign as cryptoSign,
} from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type BaseConfig } from '../config/config.js';
import { isUuid } from '../common/validation/uuid.js';
import { KeyEncryption } from './key-encryption.js';
import type { SigningKeyEntity } from '../model/signing-key.entity.js';
import { KeysRepository } from './keys.repository.js';

/** A public EC key in JWK form (RFC 7517): node:crypto exports it, no JOSE library needed. */
export interface JWK {
  kty: string;
  crv: string;
  x: string;
  y: string;
  kid: string;
  alg: string;
  use: string;
}

export const JWT_ALGORITHM = 'ES256';

interface LoadedKey {
  kid: string;
  status: SigningKeyEntity['status'];
  publicKey: KeyObject;
  privateKey: KeyObject | null;
  /** base64url of the JWS protected header this key signs with (computed once). */
  header: string;
  created: Date;
}

/**
 * ES256 signing keys kept in the database (private halves encrypted). The newest ACTIVE key signs; after a
 * rotation the previous key keeps verifying, so no issued token is invalidated. Instances re-read the
 * table every minute and whenever they meet an unknown `kid`, so a rotation reaches all of them.
 */
@Injectable()
export class SigningKeysService implements OnModuleDestroy {
  private readonly logger = new Logger(SigningKeysService.name);
  private readonly encryption: KeyEncryption;
  private keys = new Map<string, LoadedKey>();
  private signing: LoadedKey | null = null;
  private reloading: Promise<void> | null = null;
  private readonly misses = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly repo: KeysRepository,
    @Inject(APP_CONFIG) config: BaseConfig,
  ) {
    this.encryption = KeyEncryption.fromConfig(config);
  }

  /** Loads the keys, creating the first one on an empty table. Called once at start-up. */
  async init(): Promise<void> {
    await this.reload();
    if (!this.signing) {
      await this.insertKey();
      await this.reload();
    }
    this.timer = setInterval(
      () => void this.reload().catch((e) => this.logger.warn(`key reload failed: ${e}`)),
      60_000,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * A compact JWS (RFC 7515) over the claims plus `iat` and `exp`, signed by the current key: ES256 through
   * node:crypto directly (IEEE P1363 signature encoding, as JWS requires). jose's SignJWT produced the same
   * bytes at several times the cost (a WebCrypto job and key import per call). Synchronous on purpose:
   * measured under load on this service, handing the signature to libuv's thread pool cost ~90 us of CPU
   * per token against ~70 us inline, and CPU, not waiting, is what limits the token endpoint. Every e2e
   * request verifies these tokens through passport-jwt (jsonwebtoken); the interop suite verifies them with
   * jose against the JWKS.
   */
  async sign(claims: Record<string, unknown>, expires: Date): Promise<string> {
    const key = this.signing;
    if (!key?.privateKey) throw new Error('No signing key loaded');
    const payload = {
      ...claims,
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(expires.getTime() / 1000),
    };
    const input = `${key.header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    const signature = cryptoSign('sha256', Buffer.from(input), {
      key: key.privateKey,
      dsaEncoding: 'ieee-p1363',
    });
    return `${input}.${signature.toString('base64url')}`;
  }

  /**
   * Public key for a `kid`. An unknown kid always re-reads the table (a key rotated in on another instance
   * must verify at once: a refused token signs its user out); concurrent re-reads share one query. Kids that
   * cannot be ours (not UUIDs) never reach the database, and a kid found missing is remembered for 5 s.
   */
  async verificationKey(kid: string): Promise<KeyObject | null> {
    let key = this.keys.get(kid);
    if (!key) {
      if (!isUuid(kid)) return null; // our kids are UUIDs
      const missedAt = this.misses.get(kid);
      if (missedAt !== undefined && Date.now() - missedAt < 5_000) return null;
      this.reloading ??= this.reload().finally(() => (this.reloading = null));
      await this.reloading;
      key = this.keys.get(kid);
      if (!key) {
        if (this.misses.size >= 1_000) this.misses.clear();
        this.misses.set(kid, Date.now());
        return null;
      }
    }
    return key.status !== 'RETIRED' ? key.publicKey : null;
  }

  async jwks(): Promise<{ keys: JWK[] }> {
    const keys: JWK[] = [];
    for (const k of this.keys.values()) {
      if (k.status === 'RETIRED') continue;
      keys.push({
        ...(k.publicKey.export({ format: 'jwk' }) as Pick<JWK, 'kty' | 'crv' | 'x' | 'y'>),
        kid: k.kid,
        alg: JWT_ALGORITHM,
        use: 'sig',
      });
    }
    return { keys };
  }

  currentKid(): string | null {
    return this.signing?.kid ?? null;
  }

  /** New ACTIVE key; the old ACTIVE ones become PREVIOUS (still verifying). Returns the new kid. */
  async rotate(): Promise<string> {
    const kid = await this.repo.transaction(async (em) => {
      await this.repo.demoteActive(em);
      return this.insertKey(em);
    });
    await this.reload();
    return kid;
  }

  /** Stops a key verifying at all (after a compromise): tokens signed with it are refused from then on. */
  async retire(kid: string): Promise<boolean> {
    const retired = await this.repo.retire(kid, new Date());
    await this.reload();
    return retired;
  }

  /** A new ACTIVE key, through `em` when given (a rotation's transaction). */
  private async insertKey(em?: EntityManager): Promise<string> {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const kid = randomUUID();
    await this.repo.insert(
      {
        id: kid,
        algorithm: JWT_ALGORITHM,
        public_key_pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
        private_key_encrypted: this.encryption.encrypt(
          privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        ),
        status: 'ACTIVE',
      },
      em,
    );
    this.logger.log(`Created signing key ${kid}`);
    return kid;
  }

  private async reload(): Promise<void> {
    const rows = await this.repo.all();
    const keys = new Map<string, LoadedKey>();
    for (const r of rows) {
      const known = this.keys.get(r.id);
      keys.set(r.id, {
        kid: r.id,
        status: r.status,
        created: r.date_created,
        header: Buffer.from(JSON.stringify({ alg: JWT_ALGORITHM, kid: r.id, typ: 'JWT' })).toString(
          'base64url',
        ),
        publicKey: known?.publicKey ?? createPublicKey(r.public_key_pem),
        privateKey:
          r.status === 'ACTIVE'
            ? (known?.privateKey ?? createPrivateKey(this.encryption.decrypt(r.private_key_encrypted)))
            : null,
      });
    }
    this.keys = keys;
    this.signing = [...keys.values()].find((k) => k.status === 'ACTIVE') ?? null;
  }
}
