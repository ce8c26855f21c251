import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, Not } from 'typeorm';
import { AuditService } from '../audit/audit.service.js';
import type { AuthContext } from '../common/auth/auth-context.js';
import { isUniqueViolation } from '../database/sql-helpers.js';
import type { UserDto } from '../users/dto/user.dto.js';
import { UserSystemDomainEntity } from '../users/user-system-domain.entity.js';
import { userView } from '../users/user-view.js';
import { withMemberships } from '../users/user-memberships.js';
import { UserEntity } from '../users/user.entity.js';
import { UsersErrors } from '../users/users.errors.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import type { UserSamlIdentityDto } from './dto/user-saml-identity.dto.js';
import { IdentityProviderEntity } from './identity-provider.entity.js';
import { IdpErrors } from './identity-providers.errors.js';
import { IdentityProvidersRepository } from './identity-providers.repository.js';
import { UserSamlIdentityEntity } from './user-saml-identity.entity.js';

/**
 * A user's single-sign-on identity in the caller's domain (PUT/DELETE /v1/users/{id}/saml/): which of the
 * domain's identity providers signs them in, with which asserted email. SsoLoginService reads it at the ACS.
 * Setting it lets the domain's IdP sign the person in, so it is an administrator's act, and for an account
 * shared with other domains a super administrator's (as changing its email or password is).
 */
@Injectable()
export class UserSamlIdentityService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
    private readonly repo: IdentityProvidersRepository,
  ) {}

  async set(auth: AuthContext, userId: string, body: UserSamlIdentityDto): Promise<UserDto> {
    return this.ds.transaction(async (em) => {
      const member = await this.member(em, auth, userId);
      const idp = await em.existsBy(IdentityProviderEntity, {
        id: body.identity_provider_id,
        system_domain_id: auth.systemDomainId,
      });
      if (!idp) throw IdpErrors.NOT_FOUND();
      await this.repo
        .setUserIdentity(em, {
          userId,
          systemDomainId: auth.systemDomainId,
          idpId: body.identity_provider_id,
          email: body.email,
        })
        .catch((e: unknown) => {
          throw isUniqueViolation(e) ? IdpErrors.SAML_IDENTITY_TAKEN() : e;
        });
      return this.changed(em, auth, member, 'set', body.identity_provider_id);
    });
  }

  async remove(auth: AuthContext, userId: string): Promise<void> {
    await this.ds.transaction(async (em) => {
      const member = await this.member(em, auth, userId);
      const res = await em.delete(UserSamlIdentityEntity, {
        user_id: userId,
        system_domain_id: auth.systemDomainId,
      });
      if (!res.affected) throw IdpErrors.NO_SAML_IDENTITY();
      await this.changed(em, auth, member, 'removed', null);
    });
  }

  /** The user as a member of the caller's domain; a shared account only for a super administrator. */
  private async member(
    em: EntityManager,
    auth: AuthContext,
    userId: string,
  ): Promise<{ user: UserEntity; isAdmin: boolean }> {
    const membership = await em.findOneBy(UserSystemDomainEntity, {
      user_id: userId,
      system_domain_id: auth.systemDomainId,
    });
    if (!membership) throw UsersErrors.NOT_FOUND();
    const user = await em.findOneByOrFail(UserEntity, { id: userId });
    if (!auth.isSuperAdmin) {
      const other = await em.exists(UserSystemDomainEntity, {
        where: { user_id: userId, system_domain_id: Not(auth.systemDomainId) },
      });
      if (other) throw IdpErrors.SAML_SHARED_ACCOUNT();
    }
    return { user, isAdmin: membership.is_admin };
  }

  private async changed(
    em: EntityManager,
    auth: AuthContext,
    m: { user: UserEntity; isAdmin: boolean },
    what: 'set' | 'removed',
    idpId: string | null,
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
      data: { ...view, saml_identity: what, identity_provider_id: idpId },
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
      },
    );
    return view;
  }
}
