import { Inject, Injectable } from '@nestjs/common';
import { InvitationsErrors } from './invitations.errors.js';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { hashPassword } from '../../base/common/crypto/passwords.js';
import { generateSecret, sha256Hex } from '../../base/common/crypto/secrets.js';
import type { ListEnvelope } from '../../base/common/http/list-envelope.js';
import { pageList } from '../../base/common/http/page-list.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import { CredentialsService } from '../login/credentials.service.js';
import { SignInAuthority } from '../login/sign-in-authority.js';
import { linkMail } from '../../delivery/mail/mail-templates.js';
import { MailService } from '../../delivery/mail/mail.service.js';
import { PasswordPolicyService } from '../../accounts/passwords/password-policy.service.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import type {
  CompleteInvitationDto,
  InvitationResponseDto,
  InviteUserDto,
  UserSystemDomainInviteDto,
  VerifyInviteByLinkDto,
} from './dto/invitation.dto.js';
import type { InvitationEntity } from '../../base/model/invitation.entity.js';
import { InvitationsRepository } from './invitations.repository.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { userView } from '../../accounts/users/user-view.js';
import { assertSeat, lockDomain } from '../../accounts/users/seat-limits.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { effectiveStatus } from '../../base/model/domain-status.js';
import { AuthErrors } from '../../base/common/auth/auth.errors.js';

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * Invitations into a domain. An invitation is pending until the invited person accepts it through the
 * mailed link; until then the domain holds an email address and nothing else — no account is created or
 * joined, the answer does not say whether the email has an account anywhere, and a pending invitation
 * reserves nothing outside the domain (another domain may create an account for that email meanwhile).
 */
@Injectable()
export class InvitationsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly mail: MailService,
    private readonly clock: Clock,
    private readonly signIns: SignInAuthority,
    private readonly credentials: CredentialsService,
    private readonly events: WebhookEventsService,
    private readonly passwords: PasswordPolicyService,
    private readonly repo: InvitationsRepository,
  ) {}

  /** A new invitation replaces the email's pending one in this domain (its link stops working). */
  async invite(auth: AuthContext, body: InviteUserDto): Promise<UserSystemDomainInviteDto> {
    const domainId = auth.systemDomainId;
    const secret = generateSecret();
    const expires = new Date(this.clock.now().getTime() + INVITATION_TTL_MS);
    return this.repo.transaction(async (em) => {
      // the domain first (seat limits lock it): an invitation replaced below is locked after it, as everywhere
      await lockDomain(em, domainId);
      if (await this.repo.isMemberByEmail(em, domainId, body.email)) throw InvitationsErrors.ALREADY_MEMBER();
      const replaced = await this.repo.deletePending(em, domainId, body.email);
      for (const old of replaced) await this.emit(em, auth, 'invitation', old.id, 'delete', { id: old.id });
      const type = body.type ?? 'STANDARD';
      await assertSeat(em, domainId, type, { now: this.clock.now(), countPending: true });
      const fields = {
        system_domain_id: domainId,
        email: body.email,
        first_name: body.first_name ?? null,
        last_name: body.last_name ?? null,
        type,
        user_id: null,
        inviter_user_id: auth.userId,
        reset_hash_sha256: sha256Hex(secret),
        expires,
        accepted_at: null,
      };
      const invitation = await this.repo.insertInvitation(em, fields).catch((e: unknown) => {
        throw isUniqueViolation(e) ? InvitationsErrors.INVITED_CONCURRENTLY() : e;
      });
      await this.mail.queue(em, {
        kind: 'invitation',
        to: body.email,
        subject: `You are invited to ${auth.domain.name}`,
        ...this.mailBody(auth, `${this.config.http.publicBaseUrl}/invitation/${secret}`, expires),
      });
      const created = view(invitation);
      await this.emit(em, auth, 'invitation', invitation.id, 'create', { ...created });
      return created;
    });
  }

  async listPending(
    auth: AuthContext,
    q: PageQueryDto,
    path: string,
  ): Promise<ListEnvelope<UserSystemDomainInviteDto>> {
    const qb = this.repo.pendingQuery(auth.systemDomainId);
    return pageList({
      qb,
      alias: 'i',
      q,
      sortable: ['email', 'date_created', 'expires'],
      defaultSort: [{ field: 'date_created', order: 'DESC' }],
      path,
      view: (rows) => rows.map(view),
    });
  }

  /** Withdraws a pending invitation of the caller's domain: its link answers 419 from then on. */
  async withdraw(auth: AuthContext, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      if (!(await this.repo.deletePendingById(em, id, auth.systemDomainId)))
        throw InvitationsErrors.NOT_FOUND();
      await this.emit(em, auth, 'invitation', id, 'delete', { id });
    });
  }

  /** What the link's holder sees before accepting (VerifyInviteByLink). */
  async verify(secret: string): Promise<VerifyInviteByLinkDto> {
    const invitation = await this.pending(this.repo.manager, secret);
    const [inviter, account] = await Promise.all([
      invitation.inviter_user_id ? this.repo.user(invitation.inviter_user_id) : null,
      this.repo.accountExists(invitation.email),
    ]);
    return {
      inviter_email: inviter?.email ?? null,
      local_user_exists: account,
      new_user_email: invitation.email,
      new_user_first_name: invitation.first_name,
      system_domain_id: invitation.system_domain_id,
    };
  }

  /**
   * Accepts through the link. An email without an account gets one with the given password; an existing
   * account must prove itself with its own password and joins the domain as it is. Either way the person is
   * signed in to the domain. The invitation is claimed in the same transaction: it works once. `requestId`:
   * the accepting request's (a public route: no AuthContext), for the webhook events.
   */
  async complete(
    secret: string,
    body: CompleteInvitationDto,
    requestId: string | null,
  ): Promise<InvitationResponseDto> {
    if (body.password !== body.repeat_password) {
      throw InvitationsErrors.INVALID({ repeat_password: 'must be the same as password' });
    }
    // an existing account's password is checked first, outside the transaction, through the guessing defence:
    // its count must commit although this request then fails (CredentialsService, GuessingDefence)
    const peek = await this.pending(this.repo.manager, secret);
    const proved = (await this.repo.accountExists(peek.email))
      ? ((await this.credentials.verify(peek.email, body.password, { includeInactive: true })) ?? 'wrong')
      : null;
    return this.repo.transaction(async (em) => {
      await lockDomain(em, peek.system_domain_id); // before the invitation's row, as invite() does
      // joining a domain writes to it: a frozen one is read-only for this door too (as the guard's writes)
      const target = await this.repo.domainOrFail(em, peek.system_domain_id);
      if (effectiveStatus(target, this.clock.now()) === 'FROZEN') throw AuthErrors.DOMAIN_FROZEN();
      const invitation = await this.pending(em, secret, true);
      let user = await this.repo.lockAccount(em, invitation.email);
      if (user) {
        // proved before the transaction, and for this very account (not one created meanwhile)
        const ok = proved !== null && proved !== 'wrong' && proved.id === user.id;
        if (!ok)
          throw InvitationsErrors.INVALID({
            password: 'is not the password of the existing account for this email',
          });
        if (user.status !== 'ACTIVE') throw InvitationsErrors.ACCOUNT_DEACTIVATED();
        delete (user as Partial<UserEntity>).password_hash;
        // an existing account keeps its type: if it differs from the invitation's, the seat the invitation
        // held is the wrong one, and the account needs one of its own type
        if (user.type !== invitation.type) {
          await assertSeat(em, invitation.system_domain_id, user.type, {
            now: this.clock.now(),
            countPending: true,
            excludeInvitationId: invitation.id,
          });
        }
      } else {
        // a new account's only domain is the inviting one: its PasswordChecks apply
        await this.passwords.assert([invitation.system_domain_id], body.password, {
          em,
          personal: [
            invitation.email,
            body.first_name ?? invitation.first_name,
            body.last_name ?? invitation.last_name,
          ],
        });
        user = await this.repo.insertAccount(em, {
          email: invitation.email,
          first_name: body.first_name ?? invitation.first_name,
          last_name: body.last_name ?? invitation.last_name,
          password_hash: await hashPassword(body.password),
          status: 'ACTIVE',
          type: invitation.type,
          is_super_admin: false,
          system_domain_id: invitation.system_domain_id,
          last_login: null,
        });
      }
      const joined = await this.repo.join(em, user.id, invitation.system_domain_id);
      const acceptedAt = this.clock.now();
      const at = { systemDomainId: invitation.system_domain_id, requestId };
      await this.repo.markAccepted(em, invitation.id, acceptedAt, user.id);
      // the link came by mail to this address: its holder receives mail there (OpenID Connect email_verified)
      await this.repo.markEmailVerified(em, user.id, invitation.email);
      await this.emit(em, at, 'invitation', invitation.id, 'update', {
        ...view(invitation),
        accepted_at: wireDate(acceptedAt),
        user_id: user.id,
      });
      if (joined) {
        // what an invitation link granted: its groups (those still in the domain) and administration
        // the link's primary group comes first (InvitationLinksService.register)
        await this.repo.grantLink(
          em,
          user.id,
          invitation.system_domain_id,
          invitation.group_ids ?? [],
          invitation.is_admin,
          invitation.group_ids?.[0] ?? null,
        );
        // the person is now a user of the domain, as if an administrator had created them there
        const member = await this.repo.userOrFail(em, user.id);
        await this.emit(em, at, 'user', user.id, 'create', {
          ...userView(member, invitation.system_domain_id, invitation.is_admin),
        });
      }
      const domain = await this.repo.domainOrFail(em, invitation.system_domain_id);
      // a sign-in that owes a second factor (the account has one, or the domain requires one) is not done
      // by the link: the person signs in, and the factor is asked for there
      if (await this.signIns.factorOwed(em, domain, user.id)) {
        return { auto_login: false, domain_status: domain.status, login_data: null, user_id: user.id };
      }
      const login = await this.signIns.serviceSession(
        em,
        { userId: user.id, domainId: domain.id },
        { method: 'invitation' },
      );
      return {
        auto_login: true,
        domain_status: domain.status,
        login_data: { app_id: login.appId, token: login.token },
        user_id: user.id,
      };
    });
  }

  /**
   * A webhook event in the change's transaction: `invitations` for invitations, `users` for the user joining.
   * `at`: the domain and the request (the caller's AuthContext, or what the public acceptance knows).
   */
  private emit(
    em: EntityManager,
    at: { systemDomainId: string; requestId: string | null },
    realm: 'invitation' | 'user',
    objectId: string,
    operation: 'create' | 'update' | 'delete',
    data: Record<string, unknown>,
  ): Promise<void> {
    return this.events.record(em, {
      systemDomainId: at.systemDomainId,
      objectId,
      realm,
      operation,
      eventType: realm === 'user' ? 'users' : 'invitations',
      data,
      requestId: at.requestId,
    });
  }

  /** The pending invitation behind a link: 404 when there never was one, 419 when it expired or was used. */
  private async pending(em: EntityManager, secret: string, lock = false): Promise<InvitationEntity> {
    const invitation = await this.repo.invitationByHash(em, sha256Hex(secret), lock);
    if (!invitation) throw InvitationsErrors.NOT_FOUND();
    if (invitation.accepted_at || new Date(invitation.expires).getTime() <= this.clock.now().getTime()) {
      throw InvitationsErrors.LINK_EXPIRED();
    }
    if ((await this.repo.liveDomainName(invitation.system_domain_id, em)) === undefined) {
      throw InvitationsErrors.LINK_EXPIRED();
    }
    return invitation;
  }

  private mailBody(auth: AuthContext, link: string, expires: Date): { body: string; html: string } {
    const inviter = [auth.user.first_name, auth.user.last_name].filter(Boolean).join(' ') || auth.user.email;
    return linkMail({
      intro: [`${inviter} invited you to join ${auth.domain.name}.`],
      action: 'Accept the invitation',
      link,
      outro: [
        `The link works once and expires on ${expires.toISOString()}. If you did not expect this invitation, ignore this mail.`,
      ],
    });
  }
}

function view(i: InvitationEntity): UserSystemDomainInviteDto {
  return {
    id: i.id,
    system_domain_id: i.system_domain_id,
    email: i.email,
    type: i.type,
    is_existing_user_invitation: false,
    is_initial_user_invitation: false,
    expires: wireDate(i.expires),
    date_created: wireDate(i.date_created ?? Date.now()),
  };
}
