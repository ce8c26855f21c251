import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditService } from '../../delivery/audit/audit.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import type { UserDto } from '../../accounts/users/dto/user.dto.js';
import { userView } from '../../accounts/users/user-view.js';
import { withMemberships } from '../../accounts/users/user-memberships.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { UsersErrors } from '../../accounts/users/users.errors.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import type { UserSamlIdentityDto } from './dto/user-saml-identity.dto.js';
import { IdpErrors } from './identity-providers.errors.js';
import { IdentityProvidersRepository } from './identity-providers.repository.js';

/**
 * A user's single-sign-on identity in a domain: which of the domain's identity providers names them, with
 * which asserted email. SsoLoginService reads it at the ACS, and the SignInAuthority decides at each use
 * whether it may sign them in. An administrator links (PUT/DELETE /v1/users/{id}/saml/) only accounts the
 * domain owns (its alone, no super administrator): the IdP is the domain's, so its word stops there. The
 * person links their own account (PUT/DELETE /v1/users/current/saml/) from a sign-in the service vouched for
 * (password, plus their second factor where enrolled, recently: an account change), whatever else the
 * account belongs to.
 */
@Injectable()
export class UserSamlIdentityService {
  constructor(
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
    private readonly repo: IdentityProvidersRepository,
  ) {}

  /** An administrator's link: the domain's account only. */
  async set(auth: AuthContext, userId: string, body: UserSamlIdentityDto): Promise<UserDto> {
    return this.link(auth, userId, body, false);
  }

  /** The person's own link, from a sign-in the service vouched for (the route asks a recent one). */
  async setOwn(auth: AuthContext, body: UserSamlIdentityDto): Promise<UserDto> {
    if (auth.record.vouched_by_tenant) throw IdpErrors.SAML_SELF_LINK_SERVICE_SIGN_IN();
    return this.link(auth, auth.userId, body, true);
  }

  async remove(auth: AuthContext, userId: string): Promise<void> {
    await this.unlink(auth, userId, false);
  }

  /** The person removes their link in the current domain (whoever made it). */
  async removeOwn(auth: AuthContext): Promise<void> {
    await this.unlink(auth, auth.userId, true);
  }

  private async link(
    auth: AuthContext,
    userId: string,
    body: UserSamlIdentityDto,
    bySelf: boolean,
  ): Promise<UserDto> {
    return this.repo.transaction(async (em) => {
      const member = await this.member(em, auth, userId, bySelf);
      if (!(await this.repo.idpInDomain(em, body.identity_provider_id, auth.systemDomainId)))
        throw IdpErrors.NOT_FOUND();
      await this.repo
        .setUserIdentity(em, {
          userId,
          systemDomainId: auth.systemDomainId,
          idpId: body.identity_provider_id,
          email: body.email,
          bySelf,
        })
        .catch((e: unknown) => {
          throw isUniqueViolation(e) ? IdpErrors.SAML_IDENTITY_TAKEN() : e;
        });
      return this.changed(em, auth, member, 'set', body.identity_provider_id, bySelf);
    });
  }

  private async unlink(auth: AuthContext, userId: string, bySelf: boolean): Promise<void> {
    await this.repo.transaction(async (em) => {
      const member = await this.member(em, auth, userId, bySelf, true);
      if (!(await this.repo.removeUserIdentity(em, userId, auth.systemDomainId)))
        throw IdpErrors.NO_SAML_IDENTITY();
      await this.changed(em, auth, member, 'removed', null, bySelf);
    });
  }

  /**
   * The user as a member of the caller's domain. An administrator links only an account the domain owns
   * (`removing`: any, as a super administrator may always remove a link); the person, their own.
   */
  private async member(
    em: EntityManager,
    auth: AuthContext,
    userId: string,
    bySelf: boolean,
    removing = false,
  ): Promise<{ user: UserEntity; isAdmin: boolean }> {
    const member = await this.repo.memberOf(em, userId, auth.systemDomainId);
    if (!member) throw UsersErrors.NOT_FOUND();
    const { user, isAdmin, otherDomains } = member;
    if (!bySelf && !(removing && auth.isSuperAdmin) && (otherDomains || user.is_super_admin))
      throw IdpErrors.SAML_SHARED_ACCOUNT();
    return { user, isAdmin };
  }

  private async changed(
    em: EntityManager,
    auth: AuthContext,
    m: { user: UserEntity; isAdmin: boolean },
    what: 'set' | 'removed',
    idpId: string | null,
    bySelf: boolean,
  ): Promise<UserDto> {
    const [view] = await withMemberships(em, auth.systemDomainId, [
      userView(m.user, auth.systemDomainId, m.isAdmin),
    ]);
    await this.events.record(em, {
      systemDomainId: auth.systemDomainId,
      objectId: m.user.id,
      realm: 'user',
      operation: 'update',
      eventType: 'users',
      data: { ...view, saml_identity: what, identity_provider_id: idpId, linked_by_self: bySelf },
      requestId: auth.requestId,
    });
    await this.audit.change(
      em,
      auth,
      'user.changed',
      { type: 'user', id: m.user.id },
      {
        saml_identity: what,
        identity_provider_id: idpId,
        linked_by_self: bySelf,
      },
    );
    return view;
  }
}
