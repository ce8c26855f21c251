import { Inject, Injectable } from '@nestjs/common';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import type { ConfigOf } from '../../base/config/namespace.js';
import { deriveKey, serviceSecret } from '../../base/keys/key-encryption.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import type { PasskeyEntity } from '../../base/model/passkey.entity.js';
import { GuessingDefence } from '../../accounts/lockout/guessing-defence.js';
import type { LoginTokenDto, TokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { tokenView } from '../../credentials/tokens/token-view.js';
import { TokensService } from '../../credentials/tokens/tokens.service.js';
import type { AuditOrigin } from '../../delivery/audit/audit-origin.js';
import { type AuditEntry, AuditService } from '../../delivery/audit/audit.service.js';
import { type WebhookEvent, WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { MailService } from '../../delivery/mail/mail.service.js';
import { passkeyAccepted } from '../login/mfa-policy.js';
import { SignInAuthority } from '../login/sign-in-authority.js';
import type { PasskeyLoginDto, PasskeyOptionsRequestDto, RequestOptionsDto } from './dto/passkeys.dto.js';
import { PASSKEYS_CONFIG } from './passkeys-config.js';
import { PasskeyErrors } from './passkeys.errors.js';
import { type ClaimedChallenge, PasskeysRepository, type PasskeyWithKey } from './passkeys.repository.js';
import { passkeyView } from './passkeys.service.js';
import {
  CEREMONY_MS,
  challengeKey,
  clientChallenge,
  decoyCredential,
  requestOptions,
  verifyAssertion,
} from './webauthn.js';

const notAccepted = PasskeyErrors.NOT_ACCEPTED;

/**
 * The passkey's `amr` value (RFC 8176): a key kept in one device's hardware (`hwk`), or one synced between
 * devices by a provider's account (`swk`), as the authenticator said at registration.
 */
const keyKind = (p: Pick<PasskeyEntity, 'device_type'>) => (p.device_type === 'multiDevice' ? 'swk' : 'hwk');

/** Why a passkey sign-in was refused: the audit record's reason (never the answer's, which is one). */
type Refusal =
  | 'unknown_challenge'
  | 'unknown_passkey'
  | 'another_account'
  | 'inactive'
  | 'user_handle'
  | 'flagged'
  | 'domain_policy';

/**
 * Signing in with a passkey (docs/passkeys.md): the request options (a single-use challenge, bound to the
 * ceremony it is for), and the assertion's verification, then the sign-in authority. Alone, a passkey must
 * verify its user (PIN, biometric): it is both factors (`SignInAuthority.passkeySignIn`). As the second step
 * of a password sign-in (`Temp-Auth-Token`), user presence suffices and it completes that sign-in
 * (`SignInAuthority.completeSecondFactor`). Every verification goes through the per-account
 * GuessingDefence (factor `webauthn`); a valid assertion whose signature counter went back flags the
 * passkey as cloned, and it is refused from then on.
 */
@Injectable()
export class PasskeySignIn {
  private readonly decoyKey: Buffer;

  constructor(
    private readonly repo: PasskeysRepository,
    @Inject(PASSKEYS_CONFIG.token) private readonly config: ConfigOf<typeof PASSKEYS_CONFIG>,
    @Inject(APP_CONFIG) appConfig: BaseConfig,
    private readonly clock: Clock,
    private readonly guessing: GuessingDefence,
    private readonly signIns: SignInAuthority,
    private readonly tokens: TokensService,
    private readonly audit: AuditService,
    private readonly events: WebhookEventsService,
    private readonly mail: MailService,
  ) {
    this.decoyKey = deriveKey(serviceSecret(appConfig), 'webauthn-decoy-credentials');
  }

  /**
   * The request options: for the pending sign-in of `pending` (its account's passkeys, user presence), for
   * `email`'s account (its passkeys, or the same decoy an unknown email gets), or usernameless (any
   * discoverable passkey). Without `pending`, user verification is required.
   */
  async options(body: PasskeyOptionsRequestDto, pending: AuthContext | null): Promise<RequestOptionsDto> {
    let userId: string | null = null;
    let allow: { credential_id: string; transports: string[] }[] = [];
    if (pending) {
      userId = pending.userId;
      allow = await this.usable(userId);
    } else if (body.email) {
      const user = await this.repo.user({ email: body.email });
      userId = user?.id ?? null;
      allow = userId ? await this.usable(userId) : [];
      if (allow.length === 0) allow = [decoyCredential(this.decoyKey, body.email)];
    }
    const options = await requestOptions(this.config, allow, pending ? 'preferred' : 'required');
    const now = this.clock.now();
    await this.repo.issueChallenge(
      {
        challenge_sha256: challengeKey(options.challenge),
        ceremony: 'authentication',
        user_id: userId,
        temp_token_id: pending?.tokenId ?? null,
        require_uv: !pending,
        expires: new Date(now.getTime() + CEREMONY_MS),
      },
      now,
    );
    return options as RequestOptionsDto;
  }

  /**
   * The passwordless sign-in: the Token form, as a password sign-in answers, for every live domain of the
   * account or the one `choose` names once the passkey has named the account (by default the body's
   * `system_domain_id`; the consent page's: the application's domain when the person belongs to it, else their
   * home domain).
   */
  async signIn(
    body: Pick<PasskeyLoginDto, 'response' | 'system_domain_id'>,
    origin: AuditOrigin,
    choose: (user: UserEntity) => Promise<string | undefined> = async () => body.system_domain_id,
  ): Promise<LoginTokenDto> {
    const { user, passkey } = await this.verified(body, null, origin);
    return this.signIns.passkeySignIn(user, notAccepted, {
      origin,
      domainId: await choose(user),
      amr: [keyKind(passkey), 'user', 'mfa'],
    });
  }

  /**
   * The second step of a sign-in that owes a factor (`pending`: its temporary token): the chosen domain's
   * login token, second-factor authenticated, as multidomain/login answers. The temporary token is used up.
   */
  async completeSecondFactor(
    body: Pick<PasskeyLoginDto, 'response' | 'system_domain_id'>,
    pending: AuthContext,
    origin: AuditOrigin,
  ): Promise<TokenDto> {
    const domainId = body.system_domain_id ?? pending.systemDomainId;
    // the domain first: a passkey it does not count is refused before anything is verified or recorded
    const domain = await this.repo.liveMemberDomain(pending.userId, domainId);
    if (!domain || !passkeyAccepted(domain, ['WEBAUTHN']))
      return this.refuse(origin, pending.user, 'domain_policy');
    const { user, passkey } = await this.verified(body, pending, origin);
    const issued = await this.repo.transaction(async (em) => {
      // single use: a second completion with the same temporary token finds it revoked
      if (!(await this.tokens.revoke(pending.tokenId, { em, requestId: pending.requestId })))
        throw notAccepted();
      const out = await this.signIns.completeSecondFactor(
        em,
        { userId: user.id, domainId: domain.id },
        { vouchedByTenant: pending.record.vouched_by_tenant, rightsCap: pending.rightsCap },
        origin,
        ['pwd', keyKind(passkey), 'mfa'],
      );
      await this.repo.touchLastLogin(em, user.id, this.clock.now());
      return out;
    });
    return {
      ...tokenView(
        issued.record,
        {
          is_admin: await this.tokens.isDomainAdmin(user.id, domain.id),
          is_super_admin: user.is_super_admin,
        },
        domain,
        pending.systemDomains,
        this.clock.now(),
      ),
      token: issued.token,
    };
  }

  /** The account's passkeys that may still be used (a flagged one is not offered). */
  private async usable(userId: string) {
    return (await this.repo.list(userId)).filter((p) => !p.flagged_at);
  }

  /**
   * The assertion, checked in full: its challenge claimed (once, for this ceremony: the same pending sign-in,
   * the same account), its passkey known, of that account, not flagged, its user active and (usernameless)
   * named by the user handle; then the signature, origin, RP ID and flags through the guessing defence, and
   * the counter. The use is recorded (counter, last_used, audit, webhook) before anything is issued.
   */
  private async verified(
    body: Pick<PasskeyLoginDto, 'response'>,
    pending: AuthContext | null,
    origin: AuditOrigin,
  ): Promise<{ user: UserEntity; passkey: PasskeyWithKey }> {
    const r = body.response;
    const challenge = r.id === r.rawId ? clientChallenge(r.response.clientDataJSON) : null;
    const claimed = challenge
      ? await this.repo.claimChallenge(challengeKey(challenge), 'authentication', this.clock.now())
      : null;
    const passkey = await this.repo.byCredentialId(r.id);
    const user = passkey ? await this.repo.user({ id: passkey.user_id }) : null;
    if (!passkey || !user) return this.refuse(origin, null, 'unknown_passkey');
    if (!challenge || !claimed || !this.sameCeremony(claimed, pending))
      return this.refuse(origin, user, 'unknown_challenge', passkey);
    if ((claimed.user_id && claimed.user_id !== user.id) || (pending && pending.userId !== user.id))
      return this.refuse(origin, user, 'another_account', passkey);
    if (user.status !== 'ACTIVE') return this.refuse(origin, user, 'inactive', passkey);
    if (!pending && !(await this.handleNames(r.response.userHandle ?? null, claimed, user.id)))
      return this.refuse(origin, user, 'user_handle', passkey);
    if (passkey.flagged_at) return this.refuse(origin, user, 'flagged', passkey);
    let counterWentBack = false;
    let counter = 0;
    const outcome = await this.guessing.attempt(
      user.id,
      'webauthn',
      async () => {
        const v = await verifyAssertion(
          this.config,
          r as unknown as AuthenticationResponseJSON,
          challenge,
          passkey,
          claimed.require_uv,
        );
        if (!v) return false;
        const stored = Number(passkey.counter);
        counterWentBack = (v.counter > 0 || stored > 0) && v.counter <= stored;
        counter = v.counter;
        return !counterWentBack;
      },
      { ...origin, actorUserId: user.id },
    );
    if (counterWentBack) await this.flagCloned(origin, user, passkey);
    if (outcome !== 'ok') throw notAccepted();
    const used = await this.repo.transaction(async (em) => {
      if (!(await this.repo.recordUse(em, passkey.id, counter, this.clock.now()))) return false;
      await this.onRecord(
        em,
        origin,
        user,
        {
          action: 'passkey.used',
          outcome: 'success',
          details: { webauthn_id: passkey.id, second_factor: pending !== null },
        },
        {
          operation: 'use',
          data: { passkey_id: passkey.id, name: passkey.name, second_factor: pending !== null },
        },
      );
      return true;
    });
    // another use of the same counter value won the compare-and-set meanwhile: this one is a replay
    if (!used) throw notAccepted();
    return { user, passkey };
  }

  /** The challenge was handed out for this ceremony: the same pending sign-in, or none on both sides. */
  private sameCeremony(claimed: ClaimedChallenge, pending: AuthContext | null): boolean {
    return (claimed.temp_token_id ?? null) === (pending?.tokenId ?? null);
  }

  /**
   * Whether the assertion's user handle names the passkey's account (WebAuthn §7.2: when the options named no
   * account, the handle must be there and be the account's; when they did, a handle given must match).
   */
  private async handleNames(
    handle: string | null,
    claimed: ClaimedChallenge,
    userId: string,
  ): Promise<boolean> {
    if (!handle) return claimed.user_id !== null;
    return (await this.repo.userOfHandle(handle)) === userId;
  }

  /** A refusal: on record (the factor, the reason, the passkey), then the one answer. */
  private async refuse(
    origin: AuditOrigin,
    user: UserEntity | null,
    reason: Refusal,
    passkey?: PasskeyWithKey,
  ): Promise<never> {
    await this.audit.recordAlone(
      { ...origin, actorUserId: user?.id ?? null },
      {
        systemDomainId: user?.system_domain_id ?? null,
        action: 'signin.failure',
        targetType: user ? 'user' : null,
        targetId: user?.id ?? null,
        outcome: 'failure',
        details: { factor: 'webauthn', reason, ...(passkey ? { webauthn_id: passkey.id } : {}) },
      },
    );
    throw notAccepted();
  }

  /** What a passkey did to its user's sign-in, in `em`: the audit record on the user, the `webauthn` event. */
  private async onRecord(
    em: EntityManager,
    origin: AuditOrigin,
    user: UserEntity,
    entry: Pick<AuditEntry, 'action' | 'outcome' | 'details'>,
    event: Pick<WebhookEvent, 'operation' | 'data'>,
  ): Promise<void> {
    await this.audit.record(
      em,
      { ...origin, actorUserId: user.id },
      { ...entry, systemDomainId: user.system_domain_id, targetType: 'user', targetId: user.id },
    );
    await this.events.record(em, {
      ...event,
      eventType: 'users',
      realm: 'webauthn',
      objectId: user.id,
      requestId: origin.requestId,
      systemDomainId: user.system_domain_id,
    });
  }

  /** A valid assertion with a counter that went back: a cloned authenticator. Flagged, on record, mailed. */
  private async flagCloned(origin: AuditOrigin, user: UserEntity, passkey: PasskeyWithKey): Promise<void> {
    const at = this.clock.now();
    await this.repo.transaction(async (em) => {
      await this.repo.flag(em, passkey.id, at);
      await this.onRecord(
        em,
        origin,
        user,
        {
          action: 'passkey.flagged',
          outcome: 'failure',
          details: { webauthn_id: passkey.id, reason: 'counter_went_back' },
        },
        { operation: 'update', data: { passkey: passkeyView({ ...passkey, flagged_at: at }) } },
      );
      await this.mail.queue(em, {
        kind: 'passkey_flagged',
        to: user.email,
        subject: 'One of your passkeys was blocked',
        body: `Your passkey “${passkey.name}” was used with a signature counter lower than before, which happens when an authenticator has been copied. It can no longer sign you in (${user.email}).\n\nSign in another way, remove it and register a new one; if you cannot, contact your administrator.\n`,
      });
    });
  }
}
