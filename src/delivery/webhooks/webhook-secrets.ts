import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { KeyEncryption } from '../../base/keys/key-encryption.js';

export const REDACTED = '[redacted]';
/** Header names whose values are credentials: never echoed in answers. */
const CREDENTIAL_HEADER =
  /^(authorization|proxy-authorization|cookie)$|auth|token|secret|key|passw|signature|session|cookie|credential/i;

export function isCredentialHeader(name: string): boolean {
  return CREDENTIAL_HEADER.test(name);
}

/**
 * The webhook's secrets at rest: the Standard Webhooks signing secret (`whsec_` + base64 of 32 random
 * bytes) and the extra headers, both sealed with AES-256-GCM under a key of their own (HKDF label
 * `webhook-secret-encryption`) derived from the service secret. They must be usable to sign and to send,
 * so they are encrypted, not hashed; a database dump alone holds neither.
 */
@Injectable()
export class WebhookSecrets {
  private readonly sealer: KeyEncryption;

  constructor(@Inject(APP_CONFIG) config: BaseConfig) {
    this.sealer = KeyEncryption.fromConfig(config, 'webhook-secret-encryption');
  }

  newSecret(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }

  seal(plain: string): string {
    return this.sealer.encrypt(plain);
  }

  open(sealed: string): string {
    return this.sealer.decrypt(sealed);
  }

  sealHeaders(headers: Record<string, string>): string | null {
    return Object.keys(headers).length === 0 ? null : this.seal(JSON.stringify(headers));
  }

  openHeaders(sealed: string | null): Record<string, string> {
    return sealed === null ? {} : (JSON.parse(this.open(sealed)) as Record<string, string>);
  }

  /** The headers as answers show them: credential-like values redacted. */
  static redact(headers: Record<string, string>): Record<string, string> {
    return Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, isCredentialHeader(k) ? REDACTED : v]),
    );
  }
}
