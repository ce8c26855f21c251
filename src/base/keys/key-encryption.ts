import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BaseConfig } from '../config/config.js';

/**
 * AES-256-GCM for secrets at rest (signing keys, mail bodies); each purpose gets its own key, derived
 * (HKDF-SHA256) from the service secret.
 */
export class KeyEncryption {
  private readonly key: Buffer;

  constructor(secret: string, purpose = 'signing-key-encryption') {
    this.key = deriveKey(secret, purpose);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
  }

  decrypt(sealed: string): string {
    const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }

  static fromConfig(config: BaseConfig, purpose?: string): KeyEncryption {
    return new KeyEncryption(serviceSecret(config), purpose);
  }
}

/** A 256-bit key for one purpose (encryption, a MAC), derived from the service secret. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'portcullis', purpose, 32));
}

const secrets = new WeakMap<BaseConfig, string>();

/**
 * The root of every key the service derives: KEY_ENCRYPTION_SECRET; on the embedded database without one,
 * a secret generated once and kept beside the data (mode 0600), so a restart can still read what it sealed;
 * in memory, one per configuration (one running app). PostgreSQL deployments must configure it, identical
 * on every instance.
 */
export function serviceSecret(config: BaseConfig): string {
  if (config.auth.keyEncryptionSecret) return config.auth.keyEncryptionSecret;
  let secret = secrets.get(config);
  if (secret) return secret;
  if (config.database.dataDir === 'memory://') {
    secret = randomBytes(32).toString('base64url');
  } else {
    mkdirSync(config.database.dataDir, { recursive: true });
    const file = join(config.database.dataDir, 'key-encryption.secret');
    if (!existsSync(file)) {
      writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
      chmodSync(file, 0o600);
    }
    secret = readFileSync(file, 'utf8').trim();
  }
  secrets.set(config, secret);
  return secret;
}
