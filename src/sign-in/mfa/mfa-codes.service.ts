import { Inject, Injectable } from '@nestjs/common';
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Secret, TOTP } from 'otpauth';
import { Clock } from '../../base/common/clock.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { deriveKey, KeyEncryption, serviceSecret } from '../../base/keys/key-encryption.js';
import type { GuessedFactor } from '../../accounts/lockout/guessing-defence.js';
import { MailService } from '../../delivery/mail/mail.service.js';
import type { OtpType } from '../login/mfa-policy.js';
import { MfaRepository } from './mfa.repository.js';

/**
 * otpauth, loaded on first use: most processes never check a second factor, and a top-level import holds
 * its half a megabyte of heap in every instance. Its CommonJS build, so that the methods here stay
 * synchronous; only strings (base32 seeds, codes, URIs) leave this file.
 */
const require = createRequire(import.meta.url);
let otpauthModule: typeof import('otpauth') | undefined;
const otpauth = () => (otpauthModule ??= require('otpauth') as typeof import('otpauth'));

const TOTP_PERIOD = 30;
const MAIL_CODE_TTL_MS = 10 * 60 * 1000;
const RECOVERY_CODES = 10;

export const GUESSED: Record<OtpType, GuessedFactor> = {
  TOTP: 'totp',
  MAIL_2SV: 'mail_otp',
  RECOVERY: 'recovery',
};

/**
 * Whether `code` has the shape of a code of `type`: a malformed one is refused like a wrong one, but is not a
 * guess, so it is not counted by the guessing defence (and changes nothing).
 */
export function wellFormed(type: OtpType, code: string | null | undefined): code is string {
  if (typeof code !== 'string') return false;
  const c = code.trim();
  return type === 'RECOVERY' ? /^[0-9a-f]{8}-?[0-9a-f]{8}$/i.test(c) : /^\d{6}$/.test(c);
}

/**
 * The codes of second factors: TOTP (RFC 6238 through otpauth; the seed sealed at rest, each time step
 * accepted once, ±1 step of drift), mailed codes (6 digits, 10 minutes, once, HMAC only), recovery codes
 * (HMAC only, once). Making, sealing and using up codes; the guessing defence is the callers'.
 */
@Injectable()
export class MfaCodes {
  private readonly seeds: KeyEncryption;
  private readonly mailKey: Buffer;
  private readonly recoveryKey: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: BaseConfig,
    private readonly clock: Clock,
    private readonly repo: MfaRepository,
    private readonly mail: MailService,
  ) {
    this.seeds = KeyEncryption.fromConfig(config, 'totp-seed-encryption');
    this.mailKey = deriveKey(serviceSecret(config), 'mail-otp-hmac');
    this.recoveryKey = deriveKey(serviceSecret(config), 'recovery-code-hmac');
  }

  /** Checks and uses up one code (atomically: two requests with one code cannot both pass). */
  consume(userId: string, type: OtpType, code: string): Promise<boolean> {
    if (type === 'TOTP') return this.consumeTotp(userId, code, true);
    if (type === 'MAIL_2SV') return this.consumeMailCode(userId, code);
    return this.consumeRecoveryCode(userId, code);
  }

  // ---- mailed codes ----

  private mailHash(userId: string, code: string): string {
    return createHmac('sha256', this.mailKey).update(`${userId}:${code}`).digest('hex');
  }

  async sendMailCode(userId: string, email: string): Promise<void> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = this.clock.now();
    await this.repo.transaction(async (em) => {
      const expires = new Date(now.getTime() + MAIL_CODE_TTL_MS);
      await this.repo.replaceMailCode(em, userId, this.mailHash(userId, code), now, expires);
      await this.mail.queue(em, {
        kind: 'sign-in code',
        to: email,
        subject: 'Your sign-in code',
        body: `Your sign-in code is ${code}\n\nIt is valid for 10 minutes and can be used once. If you did not try to sign in, change your password.\n`,
      });
    });
  }

  async consumeMailCode(userId: string, code: string): Promise<boolean> {
    const clean = code.trim();
    if (!/^\d{6}$/.test(clean)) return false;
    return this.repo.consumeMailCode(userId, this.mailHash(userId, clean), this.clock.now());
  }

  // ---- TOTP ----

  totp(secret: Secret, label: string): TOTP {
    return new (otpauth().TOTP)({
      issuer: 'Portcullis',
      label,
      algorithm: 'SHA1',
      digits: 6,
      period: TOTP_PERIOD,
      secret,
    });
  }

  /** The time step a code belongs to (±1 step), or null. */
  private totpStep(secretBase32: string, code: string): number | null {
    const clean = code.trim();
    if (!/^\d{6}$/.test(clean)) return null;
    const now = this.clock.now().getTime();
    const delta = this.totp(otpauth().Secret.fromBase32(secretBase32), 'x').validate({
      token: clean,
      timestamp: now,
      window: 1,
    });
    return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD) + delta;
  }

  /** Whether the user has a seed, confirmed or pending. */
  async hasSeed(userId: string, confirmed: boolean): Promise<boolean> {
    return (await this.repo.sealedSeed(userId, confirmed)) !== null;
  }

  /** A new seed, sealed for storage. */
  newSeed(): { secret: Secret; sealed: string } {
    const secret = new (otpauth().Secret)({ size: 20 });
    return { secret, sealed: this.seeds.encrypt(secret.base32) };
  }

  /** A code of the (confirmed, or pending) seed, accepted once: its step must be later than the last one used. */
  async consumeTotp(userId: string, code: string, confirmed: boolean): Promise<boolean> {
    const sealed = await this.repo.sealedSeed(userId, confirmed);
    if (!sealed) return false;
    const step = this.totpStep(this.seeds.decrypt(sealed), code);
    if (step === null) return false;
    return this.repo.advanceTotpStep(userId, step);
  }

  // ---- recovery codes ----

  recoveryHash(userId: string, code: string): string {
    const clean = code
      .trim()
      .toLowerCase()
      .replace(/[^0-9a-f]/g, '');
    return createHmac('sha256', this.recoveryKey).update(`${userId}:${clean}`).digest('hex');
  }

  /** Fresh recovery codes (shown once) and their hashes (stored). */
  newRecoveryCodes(userId: string): { codes: string[]; hashes: string[] } {
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const raw = randomBytes(8).toString('hex');
      return `${raw.slice(0, 8)}-${raw.slice(8)}`;
    });
    return { codes, hashes: codes.map((c) => this.recoveryHash(userId, c)) };
  }

  consumeRecoveryCode(userId: string, code: string): Promise<boolean> {
    return this.repo.consumeRecoveryHash(userId, this.recoveryHash(userId, code));
  }
}
