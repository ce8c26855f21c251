import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { GuessingDefence } from '../../accounts/lockout/guessing-defence.js';
import { MailService } from '../../delivery/mail/mail.service.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import type {
  DomainMfaPolicyDto,
  DomainMfaPolicyOutDto,
  UserFactorsDto,
  RecoveryCodesDto,
  TotpEnrolmentDto,
} from './dto/mfa.dto.js';
import { GUESSED, MfaCodes, wellFormed } from './mfa-codes.service.js';
import { MfaErrors } from './mfa.errors.js';
import { MFA_METHODS } from '../login/mfa-policy.js';
import { MfaRepository } from './mfa.repository.js';

/** qrcode (and its PNG encoder), imported on the first enrolment: about 1 MB of heap most processes never use. */
const qrDataUrl = (text: string): Promise<string> =>
  import('qrcode').then(({ default: QRCode }) => QRCode.toDataURL(text));

type MessageType = 'otp_enabled' | 'otp_disabled' | 'totp_enabled' | 'totp_disabled';

const invalidCode = () => MfaErrors.INVALID_CODE({ otp: 'Invalid or expired code' });

/**
 * A user's own second factors (enrolling and removing TOTP with its recovery codes, turning mailed codes on
 * and off; each change proven with a code and told to the user and to webhooks) and each domain's policy.
 */
@Injectable()
export class MfaEnrolmentService {
  private readonly logger = new Logger(MfaEnrolmentService.name);

  constructor(
    private readonly repo: MfaRepository,
    private readonly codes: MfaCodes,
    private readonly clock: Clock,
    private readonly guessing: GuessingDefence,
    private readonly mail: MailService,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
  ) {}

  /** Starts (or restarts) enrolment: a new seed, inactive until a first code confirms it. */
  async startTotp(auth: AuthContext): Promise<TotpEnrolmentDto> {
    const existing = await this.repo.find(auth.userId);
    if (existing?.totp_confirmed_at) throw MfaErrors.TOTP_ALREADY_CONFIGURED();
    const { secret, sealed } = this.codes.newSeed();
    await this.repo.startSeed(auth.userId, sealed);
    const uri = this.codes.totp(secret, auth.user.email).toString();
    return { secret: secret.base32, uri, qr_code: await qrDataUrl(uri) };
  }

  /** Confirms enrolment with a first valid code; answers the recovery codes, shown this once. */
  async confirmTotp(auth: AuthContext, otp: string): Promise<RecoveryCodesDto> {
    if (!(await this.codes.hasSeed(auth.userId, false))) throw MfaErrors.TOTP_NOT_STARTED();
    if (!wellFormed('TOTP', otp)) throw invalidCode();
    const outcome = await this.guessing.attempt(auth.userId, 'totp', () =>
      this.codes.consumeTotp(auth.userId, otp, false),
    );
    if (outcome !== 'ok') throw invalidCode();
    const { codes, hashes } = this.codes.newRecoveryCodes(auth.userId);
    await this.repo.transaction(async (em) => {
      await this.repo.confirmTotp(em, auth.userId, this.clock.now(), hashes);
      await this.notify(em, auth, 'totp_enabled');
    });
    return { recovery_codes: codes };
  }

  /** Removes the authenticator: needs a current code of it, or a recovery code (a stolen session alone cannot). */
  async removeTotp(auth: AuthContext, otp: string, type: 'TOTP' | 'RECOVERY'): Promise<void> {
    if (!(await this.codes.hasSeed(auth.userId, true))) throw MfaErrors.TOTP_NOT_CONFIGURED();
    if (!wellFormed(type, otp)) throw invalidCode();
    const outcome = await this.guessing.attempt(auth.userId, GUESSED[type], () =>
      type === 'TOTP'
        ? this.codes.consumeTotp(auth.userId, otp, true)
        : this.codes.consumeRecoveryCode(auth.userId, otp),
    );
    if (outcome !== 'ok') throw invalidCode();
    await this.repo.transaction(async (em) => {
      await this.repo.clearTotp(em, auth.userId);
      await this.notify(em, auth, 'totp_disabled');
    });
  }

  async otpConfiguration(userId: string): Promise<UserFactorsDto> {
    const row = await this.repo.find(userId, true);
    return {
      mail_2sv_enabled: row?.mail_2sv_enabled ?? false,
      totp_enabled: !!row?.totp_confirmed_at,
      recovery_codes_remaining: row?.totp_confirmed_at ? (row.recovery_code_hashes?.length ?? 0) : 0,
      mfa_methods_configured: await this.repo.configuredMethods(userId),
    };
  }

  /** Turns mailed codes on or off as a factor of the user; a mailed code proves the mailbox. */
  async setMailOtp(auth: AuthContext, enabled: boolean, otp: string): Promise<UserFactorsDto> {
    if (!wellFormed('MAIL_2SV', otp)) throw invalidCode();
    const outcome = await this.guessing.attempt(auth.userId, 'mail_otp', () =>
      this.codes.consumeMailCode(auth.userId, otp),
    );
    if (outcome !== 'ok') throw invalidCode();
    const current = await this.repo.find(auth.userId);
    await this.repo.transaction(async (em) => {
      // the code came to the account's address (an email change retires it): its holder receives mail there
      await this.repo.markEmailVerified(em, auth.userId, auth.user.email);
      if ((current?.mail_2sv_enabled ?? false) === enabled) return;
      await this.repo.setMail2sv(em, auth.userId, enabled);
      await this.notify(em, auth, enabled ? 'otp_enabled' : 'otp_disabled');
    });
    return this.otpConfiguration(auth.userId);
  }

  async domainPolicy(auth: AuthContext, body: DomainMfaPolicyDto): Promise<DomainMfaPolicyOutDto> {
    const methods = body.mfa_methods ? MFA_METHODS.filter((m) => body.mfa_methods!.includes(m)) : undefined;
    if (methods && methods.length === 0)
      throw MfaErrors.NO_METHOD_LEFT({ mfa_methods: 'Name at least one method' });
    const patch: Partial<SystemDomainEntity> = {};
    if (body.mfa_required !== undefined) patch.mfa_required = body.mfa_required;
    if (methods) patch.mfa_methods = methods;
    const d = await this.repo.setDomainPolicy(auth.systemDomainId, patch);
    this.logger.log(
      `second-factor policy of domain ${d.id}: required=${d.mfa_required} methods=${d.mfa_methods.join(',')}`,
    );
    return { mfa_required: d.mfa_required, mfa_methods: d.mfa_methods };
  }

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
