import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import type { ConfigOf } from '../../base/config/namespace.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import { wireDate, wireDateOrNull } from '../../base/common/http/wire-date.js';
import type { PasskeyEntity } from '../../base/model/passkey.entity.js';
import type { AuditAction } from '../../delivery/audit/audit-actions.js';
import { fromAuth } from '../../delivery/audit/audit-origin.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { MailService } from '../../delivery/mail/mail.service.js';
import type { CreationOptionsDto, PasskeyDto, PasskeyRegistrationDto } from './dto/passkeys.dto.js';
import { PASSKEYS_CONFIG } from './passkeys-config.js';
import { PasskeyErrors } from './passkeys.errors.js';
import { requireAccountAdministrator } from '../../accounts/users/user-rules.js';
import { PasskeysRepository } from './passkeys.repository.js';
import {
  CEREMONY_MS,
  challengeKey,
  clientChallenge,
  creationOptions,
  verifyRegistration,
} from './webauthn.js';

/** The API form of a passkey (never its key or credential id). */
export function passkeyView(p: PasskeyEntity): PasskeyDto {
  return {
    id: p.id,
    name: p.name,
    date_created: wireDate(p.date_created),
    last_used: wireDateOrNull(p.last_used),
    transports: p.transports,
    aaguid: p.aaguid,
    device_type: p.device_type,
    backed_up: p.backed_up,
    flagged_at: wireDateOrNull(p.flagged_at),
  };
}

type Change = 'registered' | 'renamed' | 'removed';

/** The most passkeys one account holds (a person has a handful; the options list them all). */
export const MAX_PASSKEYS = 25;

const OPERATIONS: Record<Change, string> = { registered: 'create', renamed: 'update', removed: 'delete' };

/**
 * A person's passkeys: registering one (an account change: the person's own recent or second-factor sign-in,
 * AccountChangeStep), listing, renaming and removing them; an administrator's listing and removal of a
 * user's. Each change is audited, told to webhooks (`users`, realm `webauthn`) and, when it adds or removes
 * a passkey, mailed to the person.
 */
@Injectable()
export class PasskeysService {
  constructor(
    private readonly repo: PasskeysRepository,
    @Inject(PASSKEYS_CONFIG.token) private readonly config: ConfigOf<typeof PASSKEYS_CONFIG>,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly events: WebhookEventsService,
    private readonly mail: MailService,
  ) {}

  /** The creation options of a new passkey for the caller, with a single-use challenge bound to them. */
  async registrationOptions(auth: AuthContext): Promise<CreationOptionsDto> {
    const handle = await this.repo.userHandle(auth.userId, randomBytes(32).toString('base64url'));
    const user = auth.user;
    const displayName = [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;
    const existing = await this.repo.list(auth.userId);
    if (existing.length >= MAX_PASSKEYS) throw PasskeyErrors.TOO_MANY();
    const options = await creationOptions(this.config, { handle, email: user.email, displayName }, existing);
    const now = this.clock.now();
    await this.repo.issueChallenge(
      {
        challenge_sha256: challengeKey(options.challenge),
        ceremony: 'registration',
        user_id: auth.userId,
        temp_token_id: null,
        require_uv: false,
        expires: new Date(now.getTime() + CEREMONY_MS),
      },
      now,
    );
    return options as CreationOptionsDto;
  }

  /** Verifies the authenticator's answer to the caller's options and keeps the passkey. */
  async register(auth: AuthContext, body: PasskeyRegistrationDto): Promise<PasskeyDto> {
    const refused = (why: string) => PasskeyErrors.REGISTRATION_REFUSED({ response: why });
    const challenge = clientChallenge(body.response.response.clientDataJSON);
    const claimed = challenge
      ? await this.repo.claimChallenge(challengeKey(challenge), 'registration', this.clock.now())
      : null;
    if (!challenge || !claimed || claimed.user_id !== auth.userId)
      throw refused('Unknown, used or expired challenge: ask for new registration options');
    const v = await verifyRegistration(
      this.config,
      body.response as unknown as RegistrationResponseJSON,
      challenge,
    );
    if (!v.ok) throw refused(v.reason);
    if ((await this.repo.list(auth.userId)).length >= MAX_PASSKEYS) throw PasskeyErrors.TOO_MANY();
    try {
      return await this.repo.transaction(async (em) => {
        const row = await this.repo.insert(em, {
          user_id: auth.userId,
          credential_id: v.credentialId,
          public_key: v.publicKey,
          counter: String(v.counter),
          transports: v.transports,
          aaguid: v.aaguid,
          device_type: v.deviceType,
          backed_up: v.backedUp,
          name: body.name?.trim() || 'Passkey',
        });
        await this.changed(em, auth, auth.user.email, row, 'registered');
        return passkeyView(row);
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw PasskeyErrors.ALREADY_REGISTERED();
      throw e;
    }
  }

  async list(userId: string): Promise<PasskeyDto[]> {
    return (await this.repo.list(userId)).map(passkeyView);
  }

  async rename(auth: AuthContext, id: string, name: string): Promise<PasskeyDto> {
    if (name.trim() === '') throw PasskeyErrors.INVALID({ name: 'must not be blank' });
    const row = await this.repo.rename(auth.userId, id, name.trim());
    if (!row) throw PasskeyErrors.NOT_FOUND();
    await this.repo.transaction((em) => this.changed(em, auth, null, row, 'renamed'));
    return passkeyView(row);
  }

  /** The caller's own passkey removed (an account change). */
  async remove(auth: AuthContext, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      const row = await this.repo.remove(em, auth.userId, id);
      if (!row) throw PasskeyErrors.NOT_FOUND();
      await this.changed(em, auth, auth.user.email, row, 'removed');
    });
  }

  /** A user's passkeys, for an administrator who may read the user (the route's ACL). */
  async listFor(auth: AuthContext, userId: string): Promise<PasskeyDto[]> {
    await this.member(auth, userId);
    return this.list(userId);
  }

  /**
   * An administrator removes a user's passkey (a lost or cloned one): the passkeys are the account's, shared
   * by every domain the user belongs to, so the rank rules of lifting a lock apply: an administrator of the
   * user's only domain, or a super administrator.
   */
  async removeFor(auth: AuthContext, userId: string, id: string): Promise<void> {
    const { user, domains } = await this.member(auth, userId);
    requireAccountAdministrator(auth, user, domains.length, {
      superAdminRank: PasskeyErrors.SUPER_ADMIN_RANK,
      adminOnly: PasskeyErrors.ADMIN_ONLY,
      sharedAccount: PasskeyErrors.SHARED_ACCOUNT,
    });
    await this.repo.transaction(async (em) => {
      const row = await this.repo.remove(em, userId, id);
      if (!row) throw PasskeyErrors.NOT_FOUND();
      await this.changed(em, auth, user.email, row, 'removed');
    });
  }

  /** The user, a member of the caller's domain (else 404, as users/{id}/ answers). */
  private async member(auth: AuthContext, userId: string) {
    const domains = await this.repo.domainIds(userId);
    const user = domains.includes(auth.systemDomainId) ? await this.repo.user({ id: userId }) : null;
    if (!user) throw PasskeyErrors.NOT_FOUND();
    return { user, domains };
  }

  /** The change's audit record and webhook event, and (`mailTo`) the person's notice, inside `em`. */
  private async changed(
    em: EntityManager,
    auth: AuthContext,
    mailTo: string | null,
    row: PasskeyEntity,
    change: Change,
  ): Promise<void> {
    const action = `passkey.${change}` as AuditAction;
    await this.audit.record(em, fromAuth(auth), {
      systemDomainId: auth.systemDomainId,
      action,
      targetType: 'user',
      targetId: row.user_id,
      outcome: 'success',
      details: { webauthn_id: row.id, name: row.name },
    });
    await this.events.record(em, {
      eventType: 'users',
      realm: 'webauthn',
      operation: OPERATIONS[change],
      objectId: row.user_id,
      data: { passkey: passkeyView(row) },
      requestId: auth.requestId,
      systemDomainId: auth.systemDomainId,
    });
    if (!mailTo) return;
    const what =
      change === 'registered'
        ? `A passkey (“${row.name}”) was added to`
        : `A passkey (“${row.name}”) was removed from`;
    await this.mail.queue(em, {
      kind: change === 'registered' ? 'passkey_added' : 'passkey_removed',
      to: mailTo,
      subject: 'Your passkeys changed',
      body: `${what} your account (${mailTo}).\n\nIf this was not you, change your password and contact your administrator.\n`,
    });
  }
}
