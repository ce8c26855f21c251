import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../config/config.js';

/** AES-256-GCM for private keys at rest; the key is derived (HKDF-SHA256) from KEY_ENCRYPTION_SECRET. */
export class KeyEncryption {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'portcullis', 'signing-key-encryption', 32));
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

  /**
   * The configured secret; on the embedded database without one, a secret generated once and kept beside
   * the data (mode 0600), so a restart can still read the keys. PostgreSQL deployments must configure it.
   */
  static fromConfig(config: AppConfig): KeyEncryption {
    if (config.auth.keyEncryptionSecret) return new KeyEncryption(config.auth.keyEncryptionSecret);
    if (config.database.dataDir === 'memory://')
      return new KeyEncryption(randomBytes(32).toString('base64url'));
    mkdirSync(config.database.dataDir, { recursive: true });
    const file = join(config.database.dataDir, 'key-encryption.secret');
    if (!existsSync(file)) {
      writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
      chmodSync(file, 0o600);
    }
    return new KeyEncryption(readFileSync(file, 'utf8').trim());
  }
}
