import { Injectable } from '@nestjs/common';
import { type EntityManager, IsNull, Not } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import {
  IdentityProviderDomainEntity,
  IdentityProviderEntity,
} from '../../base/model/identity-provider.entity.js';
import { DirectoryEntity, OidcProviderEntity } from '../../base/model/federation.entity.js';

/** The columns that name a binding's authenticator (exactly one is set). */
export const AUTHENTICATOR_COLUMNS = ['identity_provider_id', 'directory_id', 'oidc_provider_id'] as const;
export type AuthenticatorColumn = (typeof AUTHENTICATOR_COLUMNS)[number];

/** A binding's key: one name claimed by one system domain. */
export interface BindingKey {
  domain: string;
  system_domain_id: string;
}

/**
 * The statements of email-domain bindings (DomainBindingsService), each in the caller's transaction. What
 * single sign-on reads of them (routing, the ACS's check) is IdentityProvidersRepository's: routedIdpId and
 * isDomainBound, which see verified bindings only.
 */
@Injectable()
export class DomainBindingsRepository extends FeatureRepository {
  /** One of the domain's authenticators (an IdP, a directory, an OpenID provider), or null. */
  authenticatorOfDomain(
    column: AuthenticatorColumn,
    id: string,
    systemDomainId: string,
  ): Promise<{ system_domain_id: string } | null> {
    const entity = {
      identity_provider_id: IdentityProviderEntity,
      directory_id: DirectoryEntity,
      oidc_provider_id: OidcProviderEntity,
    }[column];
    return this.ds.getRepository<{ id: string; system_domain_id: string }>(entity).findOne({
      where: { id, system_domain_id: systemDomainId },
      select: { id: true, system_domain_id: true },
    });
  }

  /** A binding by its key (inside `em`'s transaction, else outside any), or null. */
  binding(
    key: BindingKey,
    em: EntityManager = this.ds.manager,
  ): Promise<IdentityProviderDomainEntity | null> {
    return em.findOneBy(IdentityProviderDomainEntity, key);
  }

  /** A binding that must be there (it was just written in `em`'s transaction). */
  bindingOrFail(em: EntityManager, key: BindingKey): Promise<IdentityProviderDomainEntity> {
    return em.findOneByOrFail(IdentityProviderDomainEntity, key);
  }

  /** The bindings of a name: one domain's, or (no domain given) every domain's. */
  bindingsNamed(
    em: EntityManager,
    domain: string,
    systemDomainId?: string,
  ): Promise<IdentityProviderDomainEntity[]> {
    return em.findBy(IdentityProviderDomainEntity, {
      domain,
      ...(systemDomainId === undefined ? {} : { system_domain_id: systemDomainId }),
    });
  }

  async removeBinding(em: EntityManager, key: BindingKey): Promise<void> {
    await em.delete(IdentityProviderDomainEntity, key);
  }
  /**
   * People with this email domain whose accounts the system domain does not hold alone: super administrators,
   * and users who belong to any other domain, or not to this one. Binding such a name would route them to this
   * domain's IdP, so it takes a super administrator's decision.
   */
  async contestedUsers(em: EntityManager, emailDomain: string, systemDomainId: string): Promise<number> {
    // raw: lower(split_part(email, '@', 2)) with EXISTS over memberships, counted in the database
    const [{ n }] = (await em.query(
      `SELECT count(*)::int AS n FROM users u WHERE lower(split_part(u.email, '@', 2)) = $1
         AND (u.is_super_admin
           OR EXISTS (SELECT 1 FROM user_system_domains m WHERE m.user_id = u.id AND m.system_domain_id <> $2)
           OR NOT EXISTS (SELECT 1 FROM user_system_domains m WHERE m.user_id = u.id AND m.system_domain_id = $2))`,
      [emailDomain, systemDomainId],
    )) as { n: number }[];
    return n;
  }

  /** Whether another system domain holds this name verified (then it routes there, and nobody else's may). */
  verifiedElsewhere(em: EntityManager, domain: string, systemDomainId: string): Promise<boolean> {
    return em.existsBy(IdentityProviderDomainEntity, {
      domain,
      system_domain_id: Not(systemDomainId),
      verified_at: Not(IsNull()),
    });
  }

  /** Claims a name for an IdP of a domain (nothing when the domain has claimed it meanwhile). */
  async claim(
    em: EntityManager,
    row: Pick<
      IdentityProviderDomainEntity,
      | 'domain'
      | 'system_domain_id'
      | 'identity_provider_id'
      | 'directory_id'
      | 'oidc_provider_id'
      | 'verified_at'
      | 'challenge_token'
    >,
  ): Promise<void> {
    await em
      .createQueryBuilder()
      .insert()
      .into(IdentityProviderDomainEntity)
      .values(row)
      .orIgnore()
      .execute();
  }

  /** Marks a binding verified now, if it was not (a unique violation when another domain's is verified). */
  async markVerified(em: EntityManager, domain: string, systemDomainId: string): Promise<void> {
    await em.update(
      IdentityProviderDomainEntity,
      { domain, system_domain_id: systemDomainId, verified_at: IsNull() },
      { verified_at: () => 'now()' },
    );
  }
}
