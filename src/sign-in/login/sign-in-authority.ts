import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DOMAIN_ADMIN_CAP, type RightsCap } from '../../base/common/auth/rights.js';
import { Clock } from '../../base/common/clock.js';
import { normalizeEmail } from '../../base/common/validation/email-rules.js';
import type { ApiError } from '../../base/common/errors/api-error.js';
import { OUTSIDE_REQUEST, type AuditOrigin } from '../../delivery/audit/audit-origin.js';
import type { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { assertSeat, lockDomain } from '../../accounts/users/seat-limits.js';
import { userView } from '../../accounts/users/user-view.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { type AccountFacts, SignInAuthorityRepository } from './sign-in-authority.repository.js';
import {
  type ServiceMethod,
  type SignInHook,
  type SignInOptions,
  SignInService,
  type TenantMethod,
} from './sign-in.service.js';
import { factorOwed, type MfaPolicy } from './mfa-policy.js';
import { ownsAccount } from './ownership.js';

/**
 * An authenticator that one tenant controls (a domain's SAML IdP, its company directory, its OpenID
 * provider): its word is good only inside that domain, and only for what that domain owns.
 */
export interface TenantAuthenticator {
  kind: TenantMethod;
  /** The authenticator's own id (the IdP's), for logs. */
  id: string;
  /** The domain whose administrators control it. */
  systemDomainId: string;
}

/** What a tenant's authenticator asserts, with the facts of its own configuration the authority weighs. */
export interface TenantAssertion {
  by: TenantAuthenticator;
  /** The identity asserted (an email address, as the authenticator names its people). */
  email: string;
  firstName: string | null;
  lastName: string | null;
  /**
   * An account the authenticator's identity was linked to (users/{id}/saml/ by an administrator, or
   * users/current/saml/ by the person), or null: the authority then goes by the asserted email.
   */
  link: { userId: string; bySelf: boolean } | null;
  /** The asserted email's domain name is bound to this authenticator and verified (DNS) or decided. */
  emailDomainVerified: boolean;
  /** The authenticator may create accounts just in time. */
  provision: boolean;
  requestId: string | null;
}

/** Why the authority would not let a tenant's authenticator vouch: said to the authenticator's log, never to the browser. */
export class SignInRefusal extends Error {}

/** An account a tenant's authenticator may sign in, and whether that tenant owns it. */
export interface VouchedAccount {
  userId: string;
  /** The account's only membership is the authenticator's domain, and it is no super administrator. */
  owned: boolean;
}

/**
 * The one place that turns what an authenticator asserts into a session (docs/security.md, "The sign-in
 * authority"). An authenticator says who controls it (the service itself, or one tenant), whom it vouches
 * for, and how; the authority alone decides which account that is, which domains the session may enter, and
 * what it may change:
 * - the service's own authenticators (password, mailed link, passkey, the second factor of the
 *   temporary-token sign-in, an invitation or registration completed) vouch for any account: the session
 *   enters every live domain of the user (`signIn`, `passkeySignIn`) or the one a flow chose (`serviceSession`);
 * - a tenant's authenticator vouches only for accounts that tenant owns (every membership is its domain, no
 *   super administrator), or for an account whose person linked the identity from a sign-in of their own,
 *   re-checked at every use; its session enters that one domain, is never second-factor authenticated, and
 *   is marked `vouched_by_tenant`, so changes beyond the tenant need the service's own sign-in
 *   (requireAccountChange). On an account it does not own, the session's rights stop at the domain's
 *   administrator (no super administrator's power through a tenant's word).
 * Nothing else mints a sign-in token: SignInService is private to this file (src/sign-in/login/architecture.spec.ts).
 */
@Injectable()
export class SignInAuthority {
  private readonly logger = new Logger('SignInAuthority');

  constructor(
    private readonly issuing: SignInService,
    private readonly repo: SignInAuthorityRepository,
    private readonly events: WebhookEventsService,
    private readonly clock: Clock,
  ) {}

  /**
   * The service verified the person (`method`): a login token in every live domain of theirs (a temporary
   * token where a factor is owed), as the Token form. `unauthorized`: the answer when no domain is left.
   */
  signIn(
    user: UserEntity,
    method: ServiceMethod,
    unauthorized: () => ApiError,
    within?: SignInHook,
    origin: AuditOrigin = OUTSIDE_REQUEST,
    read?: Pick<SignInOptions, 'memberships' | 'clearFactor'>,
  ): Promise<LoginTokenDto> {
    return this.issuing.signIn(user, method, unauthorized, within, origin, read);
  }

  /**
   * The service verified the person with a user-verified passkey (src/sign-in/passkeys/: its assertion, its
   * account, its counter checked): two factors in one, so the login tokens are second-factor authenticated
   * wherever the domain's policy counts passkeys; a domain that requires a factor and does not list WEBAUTHN
   * owes one of its own methods (a temporary token, as after a password). `domainId`: that one domain only.
   */
  passkeySignIn(
    user: UserEntity,
    unauthorized: () => ApiError,
    opts: { origin: AuditOrigin; domainId?: string; amr: string[] },
  ): Promise<LoginTokenDto> {
    return this.issuing.signIn(user, 'passkey', unauthorized, undefined, opts.origin, {
      domainId: opts.domainId,
      amr: opts.amr,
    });
  }

  /**
   * The service verified the person (`method`) for one domain a flow chose (the consent page, an invitation,
   * a registration, the completion of a second factor: `mfa`): its login token, inside `em`.
   */
  serviceSession(
    em: EntityManager,
    user: { userId: string; domainId: string },
    how: { method: ServiceMethod; mfa?: boolean; origin?: AuditOrigin },
  ) {
    return this.issuing.domainToken(em, user.userId, user.domainId, how);
  }

  /**
   * The service's own second factor completed a sign-in that owed one (`pending`: its temporary token's
   * record), for its domain, inside `em`: the login token, second-factor authenticated, and still what the
   * sign-in it completes was: a directory's sign-in stays the tenant's (its mark and ceiling), so a factor
   * passed on top of a tenant's word never launders it into a service session. `amr`: the factor's methods
   * where the marks do not tell them (a passkey: PasskeySignIn).
   */
  completeSecondFactor(
    em: EntityManager,
    user: { userId: string; domainId: string },
    pending: { vouchedByTenant: boolean; rightsCap: readonly string[] | null },
    origin: AuditOrigin,
    amr?: string[],
  ) {
    return this.issuing.domainToken(em, user.userId, user.domainId, {
      method: 'second_factor',
      mfa: true,
      origin,
      tenantVouched: pending.vouchedByTenant,
      rightsCap: pending.rightsCap ? [...pending.rightsCap] : null,
      amr: amr ?? null,
    });
  }

  /**
   * Whether signing the user in to `domain` owes a second factor (mfa-policy.ts, factorOwed: a factor the
   * user confirmed, or the domain requires one), read inside `em`: a flow that would end in a
   * serviceSession (an invitation, a registration) leaves the sign-in to the person then.
   */
  async factorOwed(
    em: EntityManager,
    domain: Pick<MfaPolicy, 'mfa_required'>,
    userId: string,
  ): Promise<boolean> {
    return factorOwed(domain, await this.repo.configuredMethods(em, userId));
  }

  /** A temporary sign-in token in one domain: the service verified the password, a second factor is owed. */
  async pendingSession(userId: string, domainId: string): Promise<string> {
    const { token } = await this.repo.transaction((em) =>
      this.issuing.tempToken(em, userId, domainId, {
        method: 'password',
        origin: { ...OUTSIDE_REQUEST, actorUserId: userId },
      }),
    );
    return token;
  }

  /**
   * Which account a tenant's assertion names, if it may name one (else SignInRefusal, with the reason): the
   * linked account, or the account of the asserted email when its domain name is verified for the
   * authenticator, or a new account of the tenant's alone when the authenticator provisions just in time.
   */
  async vouch(a: TenantAssertion): Promise<VouchedAccount> {
    const domainId = a.by.systemDomainId;
    return this.repo.transaction(async (em) => {
      await lockDomain(em, domainId);
      if (a.link) {
        const facts = await this.repo.accountFacts(em, { id: a.link.userId }, domainId);
        return this.judge(facts, domainId, a.link.bySelf, 'linked');
      }
      if (!a.emailDomainVerified)
        throw new SignInRefusal('the email’s domain is not bound to this authenticator, or not verified');
      const email = normalizeEmail(a.email);
      const facts = await this.repo.accountFacts(em, { email }, domainId);
      if (facts) return this.judge(facts, domainId, false, 'email');
      if (!a.provision) throw new SignInRefusal('unknown user, and just-in-time provisioning is off');
      return { userId: await this.provision(em, a, email), owned: true };
    });
  }

  /**
   * The session a tenant's authenticator vouched for (`vouch`, a moment ago: the SAML or OpenID code exchange,
   * the directory's bind), judged again now: the Token form with that domain's login token. `selfLinked`: the
   * person's own link of the authenticator's identity to this account still stands. `secondFactor`: the
   * domain's second-factor policy applies as to a password sign-in (a directory checks a password, nothing
   * more): where a factor is owed the answer is a temporary token, and the service's own factor completes it.
   */
  async tenantSession(
    by: TenantAuthenticator,
    userId: string,
    selfLinked: boolean,
    unauthorized: () => ApiError,
    origin: AuditOrigin = OUTSIDE_REQUEST,
    opts: { secondFactor?: boolean } = {},
  ): Promise<LoginTokenDto> {
    const facts = await this.repo.accountFacts(this.repo.manager, { id: userId }, by.systemDomainId);
    let vouched: VouchedAccount;
    try {
      vouched = this.judge(facts, by.systemDomainId, selfLinked, selfLinked ? 'linked' : 'email');
    } catch (e) {
      if (e instanceof SignInRefusal) {
        this.logger.warn({ authenticator: by.id, user_id: userId, reason: e.message }, 'sign-in refused');
        throw unauthorized();
      }
      throw e;
    }
    const cap: RightsCap | null = vouched.owned ? null : DOMAIN_ADMIN_CAP;
    return this.issuing.signInToDomain(facts!.user, by.systemDomainId, unauthorized, {
      method: by.kind,
      rightsCap: cap,
      origin,
      secondFactor: opts.secondFactor === true,
    });
  }

  /** The rules of whom a tenant's authenticator may vouch for, over the account's facts as they are now. */
  private judge(
    facts: AccountFacts | undefined,
    domainId: string,
    selfLinked: boolean,
    how: 'linked' | 'email',
  ): VouchedAccount {
    if (!facts) throw new SignInRefusal(`the ${how === 'linked' ? 'linked ' : ''}user no longer exists`);
    const { user, member } = facts;
    if (!member) throw new SignInRefusal('the user is not a member of the authenticator’s domain');
    if (user.status !== 'ACTIVE') throw new SignInRefusal('the user is not active');
    const owned = ownsAccount(facts);
    if (!owned && !selfLinked)
      throw new SignInRefusal(
        'the account is not this domain’s alone (a super administrator, or a member of other domains): only a link its person made themselves lets this authenticator sign it in',
      );
    return { userId: user.id, owned };
  }

  /** A just-in-time account: in the authenticator's domain only, with a seat there, as that domain's alone. */
  private async provision(em: EntityManager, a: TenantAssertion, email: string): Promise<string> {
    const domainId = a.by.systemDomainId;
    try {
      await assertSeat(em, domainId, 'STANDARD', { now: this.clock.now(), countPending: true });
    } catch {
      throw new SignInRefusal('no seat left in the domain for a new user');
    }
    const created = await this.repo.insertOwnedAccount(em, {
      email,
      firstName: a.firstName,
      lastName: a.lastName,
      domainId,
    });
    this.logger.log({ authenticator: a.by.id, user_id: created.id }, 'user provisioned just in time');
    await this.events.record(em, {
      systemDomainId: domainId,
      objectId: created.id,
      realm: 'user',
      operation: 'create',
      eventType: 'users',
      data: { ...userView(created, domainId, false) },
      requestId: a.requestId,
    });
    return created.id;
  }
}
