import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Clock } from '../common/clock.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { returningRows } from '../database/returning-rows.js';
import { deriveKey, KeyEncryption, serviceSecret } from '../keys/key-encryption.js';
import { GuessingDefence, type GuessedFactor } from '../login/guessing-defence.js';
import { SignInService } from '../login/sign-in.service.js';
import { MailService } from '../mail/mail.service.js';
import { MarketplaceService } from '../marketplace/marketplace.service.js';
import { SystemDomainEntity } from '../system-domains/system-domain.entity.js';
import type { TokenDto } from '../tokens/dto/token.dto.js';
import { tokenView } from '../tokens/token-view.js';
import { TokensService } from '../tokens/tokens.service.js';
import { CredentialMintService } from '../credentials/credential-mint.service.js';
import { UserEntity } from '../users/user.entity.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import type {
  DomainMfaPolicyDto,
  DomainMfaPolicyOutDto,
  MultiDomainLoginDto,
  OtpConfigurationDto,
  RecoveryCodesDto,
  TotpEnrolmentDto,
} from './dto/mfa.dto.js';
import { MfaErrors } from './mfa.errors.js';
import { acceptedOtpTypes, configuredMethods, factorOwed, MFA_METHODS, type OtpType } from './mfa-policy.js';
import { SystemDomainsService } from '../system-domains/system-domains.service.js';
import { MailOtpCodeEntity, UserMfaEntity } from './user-mfa.entity.js';
import { liveDomainSql } from '../system-domains/domain-status.js';
import { AuditService } from '../audit/audit.service.js';
import { fromAuth } from '../audit/audit-origin.js';

const TOTP_PERIOD = 30;
const MAIL_CODE_TTL_MS = 10 * 60 * 1000;
const RECOVERY_CODES = 10;
type MessageType = 'otp_enabled' | 'otp_disabled' | 'totp_enabled' | 'totp_disabled';

const GUESSED: Record<OtpType, GuessedFactor> = { TOTP: 'totp', MAIL_2SV: 'mail_otp', RECOVERY: 'recovery' };

/**
 * Whether `code` has the shape of a code of `type`: a malformed one is refused like a wrong one, but is not a
 * guess, so it is not counted by the guessing defence (and changes nothing).
 */
function wellFormed(type: OtpType, code: string | null | undefined): code is string {
  if (typeof code !== 'string') return false;
  const c = code.trim();
  return type === 'RECOVERY' ? /^[0-9a-f]{8}-?[0-9a-f]{8}$/i.test(c) : /^\d{6}$/.test(c);
}

/**
 * Second factors: TOTP (RFC 6238 through otpauth; the seed sealed at rest, each time step accepted once, ±1
 * step of drift), mailed codes (6 digits, 10 minutes, once, HMAC only), recovery codes (HMAC only, once), the
 * completion of a sign-in that owes a factor, and each domain's policy. Every code check goes through the
 * per-account GuessingDefence.
 */
@Injectable()
export class MfaService {
  private readonly logger = new Logger(MfaService.name);
  private readonly seeds: KeyEncryption;
  private readonly mailKey: Buffer;
  private readonly recoveryKey: Buffer;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly guessing: GuessingDefence,
    private readonly signIns: SignInService,
    private readonly tokens: TokensService,
    private readonly mint: CredentialMintService,
    private readonly mail: MailService,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
    private readonly domains: SystemDomainsService,
    private readonly marketplace: MarketplaceService,
  ) {
    this.seeds = KeyEncryption.fromConfig(config, 'totp-seed-encryption');
    this.mailKey = deriveKey(serviceSecret(config), 'mail-otp-hmac');
    this.recoveryKey = deriveKey(serviceSecret(config), 'recovery-code-hmac');
  }

  // ---- sign-in ----

  /**
   * Completes a sign-in that owes a factor: the temporary token's user, one of their domains, a code of a
   * method that domain accepts. The temporary token is used up; the domain's login token carries
   * is_mfa_authenticated.
   */
  async multidomainLogin(auth: AuthContext, body: MultiDomainLoginDto): Promise<TokenDto> {
    const { domain, accepted } = await this.signInTarget(auth, body);
    // a marketplace signup nonce (src/marketplace): 400 when unusable; consumed with the sign-in when the
    // user administers the chosen domain
    const nonce = body.marketplace_signup_nonce;
    if (nonce) await this.marketplace.assertUsable(nonce);
    const issued = await this.completeWithCode(
      auth,
      domain.id,
      accepted,
      body.otp_type ?? null,
      body.otp ?? null,
      nonce
        ? (em) => this.marketplace.consumeAtSignIn(em, nonce, auth.userId, domain.id, auth.requestId)
        : undefined,
    );
    return {
      ...tokenView(
        issued.record,
        {
          is_admin: await this.tokens.isDomainAdmin(auth.userId, domain.id),
          is_super_admin: auth.isSuperAdmin,
        },
        domain,
        auth.systemDomains,
        this.clock.now(),
      ),
      token: issued.token,
    };
  }

  /**
   * The codes that pass the factor for the user in `domainId` (see acceptedOtpTypes), or null when signing in
   * there owes no factor.
   */
  async owedFor(userId: string, domain: SystemDomainEntity): Promise<OtpType[] | null> {
    const configured = await configuredMethods(this.ds.manager, userId);
    return factorOwed(domain, configured) ? acceptedOtpTypes(domain, configured) : null;
  }

  /** A temporary sign-in token for the user, in `domainId` (the consent page keeps it in a cookie). */
  async issueTemp(userId: string, domainId: string): Promise<string> {
    const appId = await this.domains.builtinAppId(this.ds.manager, domainId);
    const { token } = await this.mint.signIn(this.ds.manager, {
      userId,
      appId,
      systemDomainId: domainId,
      kind: 'TEMP',
    });
    return token;
  }

  /**
   * Checks one code of a type in `accepted` (through the guessing defence), uses up the temporary token, and
   * issues the domain's login token with is_mfa_authenticated. Any failure: BAD_SECOND_FACTOR.
   */
  async completeWithCode(
    auth: AuthContext,
    domainId: string,
    accepted: OtpType[],
    otpType: OtpType | null,
    otp: string | null,
    within?: (em: EntityManager) => Promise<unknown>,
  ) {
    const bad = MfaErrors.BAD_SECOND_FACTOR;
    const type = otpType ?? accepted[0];
    if (auth.kind !== 'TEMP' || !type || !accepted.includes(type) || !wellFormed(type, otp)) throw bad();
    const outcome = await this.guessing.attempt(
      auth.userId,
      GUESSED[type],
      () => this.consumeCode(auth.userId, type, otp),
      fromAuth(auth),
    );
    if (outcome !== 'ok') throw bad();
    return this.ds.transaction(async (em) => {
      // single use: a second completion with the same temporary token finds it revoked
      if (!(await this.tokens.revoke(auth.tokenId, { em, requestId: auth.requestId }))) throw bad();
      const out = await this.signIns.domainToken(em, auth.userId, domainId, true, fromAuth(auth));
      await em.getRepository(UserEntity).update({ id: auth.userId }, { last_login: new Date() });
      if (within) await within(em);
      return out;
    });
  }

  /** Mails a MAIL_2SV code for a sign-in that owes a factor (where the chosen domain accepts mailed codes). */
  async generateForSignIn(auth: AuthContext, body: MultiDomainLoginDto): Promise<void> {
    const { accepted } = await this.signInTarget(auth, body);
    if (!accepted.includes('MAIL_2SV')) throw MfaErrors.BAD_SECOND_FACTOR();
    await this.sendMailCode(auth.userId, auth.user.email);
  }

  /** Step-up: mails a code to the signed-in user (it proves the mailbox when enabling or changing MAIL_2SV). */
  async generateForCurrent(auth: AuthContext): Promise<void> {
    await this.sendMailCode(auth.userId, auth.user.email);
  }

  private async signInTarget(auth: AuthContext, body: MultiDomainLoginDto) {
    const bad = MfaErrors.BAD_SECOND_FACTOR;
    if (body.email.trim().toLowerCase() !== auth.user.email.toLowerCase()) throw bad();
    const domain = await this.ds
      .getRepository(SystemDomainEntity)
      .createQueryBuilder('d')
      .innerJoin('user_system_domains', 'm', 'm.system_domain_id = d.id AND m.user_id = :userId', {
        userId: auth.userId,
      })
      .where(liveDomainSql('d'))
      .andWhere('d.id = :id', { id: body.system_domain_id })
      .getOne();
    if (!domain) throw bad();
    const accepted = acceptedOtpTypes(domain, await configuredMethods(this.ds.manager, auth.userId));
    return { domain, accepted };
  }

  /** Checks and uses up one code (atomically: two requests with one code cannot both pass). */
  private async consumeCode(userId: string, type: OtpType, code: string): Promise<boolean> {
    if (type === 'TOTP') return this.consumeTotp(userId, code, true);
    if (type === 'MAIL_2SV') return this.consumeMailCode(userId, code);
    return this.consumeRecoveryCode(userId, code);
  }

  // ---- mailed codes ----

  private mailHash(userId: string, code: string): string {
    return createHmac('sha256', this.mailKey).update(`${userId}:${code}`).digest('hex');
  }

  private async sendMailCode(userId: string, email: string): Promise<void> {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = this.clock.now();
    await this.ds.transaction(async (em) => {
      // one live code per user: a new one replaces the last
      await em.query('UPDATE mail_otp_codes SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [
        userId,
        now,
      ]);
      await em.getRepository(MailOtpCodeEntity).insert({
        user_id: userId,
        code_hash: this.mailHash(userId, code),
        expires: new Date(now.getTime() + MAIL_CODE_TTL_MS),
      });
      await this.mail.queue(em, {
        kind: 'sign-in code',
        to: email,
        subject: 'Your sign-in code',
        body: `Your sign-in code is ${code}\n\nIt is valid for 10 minutes and can be used once. If you did not try to sign in, change your password.\n`,
      });
    });
  }

  private async consumeMailCode(userId: string, code: string): Promise<boolean> {
    const clean = code.trim();
    if (!/^\d{6}$/.test(clean)) return false;
    const now = this.clock.now();
    const rows = returningRows(
      await this.ds.query(
        `UPDATE mail_otp_codes SET used_at = $3 WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL AND expires > $3
         RETURNING id`,
        [userId, this.mailHash(userId, clean), now],
      ),
    );
    return rows.length > 0;
  }

  // ---- TOTP ----

  private totp(secret: Secret, label: string): TOTP {
    return new TOTP({
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
    const delta = this.totp(Secret.fromBase32(secretBase32), 'x').validate({
      token: clean,
      timestamp: now,
      window: 1,
    });
    return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD) + delta;
  }

  private async sealedSeed(userId: string, confirmed: boolean): Promise<string | null> {
    const row = await this.ds
      .getRepository(UserMfaEntity)
      .createQueryBuilder('m')
      .addSelect('m.totp_secret')
      .where('m.user_id = :userId', { userId })
      .andWhere(confirmed ? 'm.totp_confirmed_at IS NOT NULL' : 'm.totp_confirmed_at IS NULL')
      .getOne();
    return row?.totp_secret ? this.seeds.decrypt(row.totp_secret) : null;
  }

  /** A code of the (confirmed, or pending) seed, accepted once: its step must be later than the last one used. */
  private async consumeTotp(userId: string, code: string, confirmed: boolean): Promise<boolean> {
    const seed = await this.sealedSeed(userId, confirmed);
    if (!seed) return false;
    const step = this.totpStep(seed, code);
    if (step === null) return false;
    const rows = returningRows(
      await this.ds.query(
        `UPDATE user_mfa SET totp_last_step = $2 WHERE user_id = $1 AND totp_secret IS NOT NULL
           AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING user_id`,
        [userId, step],
      ),
    );
    return rows.length > 0;
  }

  /** Starts (or restarts) enrolment: a new seed, inactive until a first code confirms it. */
  async startTotp(auth: AuthContext): Promise<TotpEnrolmentDto> {
    const repo = this.ds.getRepository(UserMfaEntity);
    const existing = await repo.findOneBy({ user_id: auth.userId });
    if (existing?.totp_confirmed_at) throw MfaErrors.TOTP_ALREADY_CONFIGURED();
    const secret = new Secret({ size: 20 });
    await repo.upsert(
      {
        user_id: auth.userId,
        totp_secret: this.seeds.encrypt(secret.base32),
        totp_confirmed_at: null,
        totp_last_step: null,
      },
      ['user_id'],
    );
    const uri = this.totp(secret, auth.user.email).toString();
    return { secret: secret.base32, uri, qr_code: await QRCode.toDataURL(uri) };
  }

  /** Confirms enrolment with a first valid code; answers the recovery codes, shown this once. */
  async confirmTotp(auth: AuthContext, otp: string): Promise<RecoveryCodesDto> {
    if (!(await this.sealedSeed(auth.userId, false))) throw MfaErrors.TOTP_NOT_STARTED();
    if (!wellFormed('TOTP', otp)) throw MfaErrors.INVALID_CODE({ otp: 'Invalid or expired code' });
    const outcome = await this.guessing.attempt(auth.userId, 'totp', () =>
      this.consumeTotp(auth.userId, otp, false),
    );
    if (outcome !== 'ok') throw MfaErrors.INVALID_CODE({ otp: 'Invalid or expired code' });
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const raw = randomBytes(8).toString('hex');
      return `${raw.slice(0, 8)}-${raw.slice(8)}`;
    });
    await this.ds.transaction(async (em) => {
      await em.getRepository(UserMfaEntity).update(
        { user_id: auth.userId },
        {
          totp_confirmed_at: this.clock.now(),
          recovery_code_hashes: codes.map((c) => this.recoveryHash(auth.userId, c)),
        },
      );
      await this.notify(em, auth, 'totp_enabled');
    });
    return { recovery_codes: codes };
  }

  /** Removes the authenticator: needs a current code of it, or a recovery code (a stolen session alone cannot). */
  async removeTotp(auth: AuthContext, otp: string, type: 'TOTP' | 'RECOVERY'): Promise<void> {
    if (!(await this.sealedSeed(auth.userId, true))) throw MfaErrors.TOTP_NOT_CONFIGURED();
    if (!wellFormed(type, otp)) throw MfaErrors.INVALID_CODE({ otp: 'Invalid or expired code' });
    const outcome = await this.guessing.attempt(auth.userId, GUESSED[type], () =>
      type === 'TOTP' ? this.consumeTotp(auth.userId, otp, true) : this.consumeRecoveryCode(auth.userId, otp),
    );
    if (outcome !== 'ok') throw MfaErrors.INVALID_CODE({ otp: 'Invalid or expired code' });
    await this.ds.transaction(async (em) => {
      await em
        .getRepository(UserMfaEntity)
        .update(
          { user_id: auth.userId },
          { totp_secret: null, totp_confirmed_at: null, totp_last_step: null, recovery_code_hashes: [] },
        );
      await this.notify(em, auth, 'totp_disabled');
    });
  }

  // ---- recovery codes ----

  private recoveryHash(userId: string, code: string): string {
    const clean = code
      .trim()
      .toLowerCase()
      .replace(/[^0-9a-f]/g, '');
    return createHmac('sha256', this.recoveryKey).update(`${userId}:${clean}`).digest('hex');
  }

  private async consumeRecoveryCode(userId: string, code: string): Promise<boolean> {
    const hash = this.recoveryHash(userId, code);
    const rows = returningRows(
      await this.ds.query(
        `UPDATE user_mfa SET recovery_code_hashes = array_remove(recovery_code_hashes, $2)
         WHERE user_id = $1 AND totp_confirmed_at IS NOT NULL AND $2 = ANY(recovery_code_hashes) RETURNING user_id`,
        [userId, hash],
      ),
    );
    return rows.length > 0;
  }

  // ---- MAIL_2SV configuration ----

  async otpConfiguration(userId: string): Promise<OtpConfigurationDto> {
    const row = await this.ds
      .getRepository(UserMfaEntity)
      .createQueryBuilder('m')
      .addSelect('m.recovery_code_hashes')
      .where('m.user_id = :userId', { userId })
      .getOne();
    return {
      mail_2sv_enabled: row?.mail_2sv_enabled ?? false,
      totp_enabled: !!row?.totp_confirmed_at,
      recovery_codes_remaining: row?.totp_confirmed_at ? row.recovery_code_hashes.length : 0,
      mfa_methods_configured: await configuredMethods(this.ds.manager, userId),
    };
  }

  /** Turns mailed codes on or off as a factor of the user; a mailed code proves the mailbox. */
  async setMailOtp(auth: AuthContext, enabled: boolean, otp: string): Promise<OtpConfigurationDto> {
    if (!wellFormed('MAIL_2SV', otp)) throw MfaErrors.INVALID_CODE({ otp: 'Invalid or expired code' });
    const outcome = await this.guessing.attempt(auth.userId, 'mail_otp', () =>
      this.consumeMailCode(auth.userId, otp),
    );
    if (outcome !== 'ok') throw MfaErrors.INVALID_CODE({ otp: 'Invalid or expired code' });
    const current = await this.ds.getRepository(UserMfaEntity).findOneBy({ user_id: auth.userId });
    if ((current?.mail_2sv_enabled ?? false) !== enabled) {
      await this.ds.transaction(async (em) => {
        await em
          .getRepository(UserMfaEntity)
          .upsert({ user_id: auth.userId, mail_2sv_enabled: enabled }, ['user_id']);
        await this.notify(em, auth, enabled ? 'otp_enabled' : 'otp_disabled');
      });
    }
    return this.otpConfiguration(auth.userId);
  }

  // ---- domain policy ----

  async domainPolicy(auth: AuthContext, body: DomainMfaPolicyDto): Promise<DomainMfaPolicyOutDto> {
    const repo = this.ds.getRepository(SystemDomainEntity);
    const methods = body.mfa_methods ? MFA_METHODS.filter((m) => body.mfa_methods!.includes(m)) : undefined;
    if (methods && methods.length === 0)
      throw MfaErrors.NO_METHOD_LEFT({ mfa_methods: 'Name at least one method' });
    const patch: Partial<SystemDomainEntity> = {};
    if (body.mfa_required !== undefined) patch.mfa_required = body.mfa_required;
    if (methods) patch.mfa_methods = methods;
    if (Object.keys(patch).length > 0) await repo.update({ id: auth.systemDomainId }, patch);
    const d = await repo.findOneByOrFail({ id: auth.systemDomainId });
    this.logger.log(
      `second-factor policy of domain ${d.id}: required=${d.mfa_required} methods=${d.mfa_methods.join(',')}`,
    );
    return { mfa_required: d.mfa_required, mfa_methods: d.mfa_methods };
  }

  // ---- notifications ----

  /** Tells the user their factors changed (mail), and webhooks (the event), inside the change's transaction. */
  private async notify(em: EntityManager, auth: AuthContext, messageType: MessageType): Promise<void> {
    const what: Record<MessageType, string> = {
      otp_enabled: 'Sign-in codes by mail were turned on',
      otp_disabled: 'Sign-in codes by mail were turned off',
      totp_enabled: 'An authenticator app was added',
      totp_disabled: 'Your authenticator app was removed',
    };
    await this.mail.queue(em, {
      kind: messageType,
      to: auth.user.email,
      subject: 'Your second factor changed',
      body: `${what[messageType]} for your account (${auth.user.email}).\n\nIf this was not you, change your password and contact your administrator.\n`,
    });
    await this.audit.change(
      em,
      auth,
      messageType.endsWith('_enabled') ? 'mfa.enrolled' : 'mfa.removed',
      { type: 'user', id: auth.userId },
      { change: messageType },
    );
    await this.events.record(em, {
      eventType: 'users',
      realm: 'otp_configuration',
      operation: 'update',
      objectId: auth.userId,
      data: { message_type: messageType },
      requestId: auth.requestId,
      systemDomainId: auth.systemDomainId,
    });
  }
}
