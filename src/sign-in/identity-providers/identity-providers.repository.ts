import { Injectable } from '@nestjs/common';
import { type EntityManager, In, IsNull, Not, type SelectQueryBuilder } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { UserSystemDomainEntity } from '../../base/model/user-system-domain.entity.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { UserSamlIdentityEntity } from '../../base/model/user-saml-identity.entity.js';
import { returningRows } from '../../base/database/returning-rows.js';
import {
  IdentityProviderDomainEntity,
  IdentityProviderEntity,
  SamlLoginCodeEntity,
  SamlRequestEntity,
} from '../../base/model/identity-provider.entity.js';

/** A single-use SAML login code, taken. */
export interface TakenLoginCode {
  user_id: string;
  system_domain_id: string;
  identity_provider_id: string;
  expires: Date;
}

/**
 * The statements of single sign-on: the replay cache, the pending AuthnRequests, the single-use login codes,
 * the email-domain routing. Single-use rows are taken with DELETE/INSERT … RETURNING so two requests cannot
 * both use one; expiry compares with the database's now().
 */
@Injectable()
export class IdentityProvidersRepository extends FeatureRepository {
  idp(id: string): Promise<IdentityProviderEntity | null> {
    return this.ds.getRepository(IdentityProviderEntity).findOneBy({ id });
  }

  /** The domain's IdPs, for a page of the list (`i`). */
  domainIdpsQuery(systemDomainId: string): SelectQueryBuilder<IdentityProviderEntity> {
    return this.ds
      .getRepository(IdentityProviderEntity)
      .createQueryBuilder('i')
      .where('i.system_domain_id = :d', { d: systemDomainId });
  }

  /** One of the domain's IdPs (without its sealed SP key), or null. */
  domainIdp(id: string, systemDomainId: string): Promise<IdentityProviderEntity | null> {
    return this.ds.getRepository(IdentityProviderEntity).findOneBy({ id, system_domain_id: systemDomainId });
  }

  /** An IdP with its sealed SP key (SAML endpoints), by its public id, or null. */
  idpWithKeyByPublicId(publicId: string): Promise<IdentityProviderEntity | null> {
    return this.ds
      .getRepository(IdentityProviderEntity)
      .findOne({ where: { public_id: publicId }, select: WITH_KEY });
  }

  /** An IdP with its sealed SP key, by its domain and id (the deprecated path form), or null. */
  idpWithKey(id: string, systemDomainId: string): Promise<IdentityProviderEntity | null> {
    return this.ds
      .getRepository(IdentityProviderEntity)
      .findOne({ where: { id, system_domain_id: systemDomainId }, select: WITH_KEY });
  }

  /** The IdP's sealed SP private key (not selected by default), or null. */
  async sealedKey(id: string): Promise<string | null> {
    const keyed = await this.ds
      .getRepository(IdentityProviderEntity)
      .findOne({ where: { id }, select: { id: true, sp_private_key_sealed: true } });
    return keyed?.sp_private_key_sealed ?? null;
  }

  /** A new IdP entity, not yet saved (its id comes with saveIdp). */
  newIdp(
    fields: Pick<
      IdentityProviderEntity,
      | 'public_id'
      | 'system_domain_id'
      | 'type'
      | 'settings'
      | 'verbose_logging'
      | 'enabled'
      | 'sp_private_key_sealed'
      | 'sp_certificate'
    >,
  ): IdentityProviderEntity {
    return this.ds.getRepository(IdentityProviderEntity).create(fields);
  }

  /** Inserts or updates the IdP (inside the caller's transaction). */
  async saveIdp(em: EntityManager, idp: IdentityProviderEntity): Promise<void> {
    await em.save(idp);
  }

  async deleteIdp(em: EntityManager, id: string): Promise<void> {
    await em.delete(IdentityProviderEntity, { id });
  }

  /** The email-domain bindings of these IdPs, by name. */
  bindingsOf(idpIds: string[]): Promise<IdentityProviderDomainEntity[]> {
    return this.ds
      .getRepository(IdentityProviderDomainEntity)
      .find({ where: { identity_provider_id: In(idpIds) }, order: { domain: 'ASC' } });
  }

  /** The system domain an IdP belongs to. */
  domainOf(idp: { system_domain_id: string }): Promise<SystemDomainEntity | null> {
    return this.ds.getRepository(SystemDomainEntity).findOneBy({ id: idp.system_domain_id });
  }

  /** Stores a single-use login code (its hash only). */
  async insertLoginCode(row: {
    code_sha256: string;
    user_id: string;
    system_domain_id: string;
    identity_provider_id: string;
    expires: Date;
  }): Promise<void> {
    await this.ds.getRepository(SamlLoginCodeEntity).insert(row);
  }

  /** Whether the IdP is one of the domain's (inside the caller's transaction). */
  idpInDomain(em: EntityManager, idpId: string, systemDomainId: string): Promise<boolean> {
    return em.existsBy(IdentityProviderEntity, { id: idpId, system_domain_id: systemDomainId });
  }

  /** Removes the user's SSO identity in the domain: whether there was one. */
  async removeUserIdentity(em: EntityManager, userId: string, systemDomainId: string): Promise<boolean> {
    const res = await em.delete(UserSamlIdentityEntity, {
      user_id: userId,
      system_domain_id: systemDomainId,
    });
    return Boolean(res.affected);
  }

  /**
   * The user as a member of the domain (null: not a member), and whether they belong to any other domain
   * (inside the caller's transaction).
   */
  async memberOf(
    em: EntityManager,
    userId: string,
    systemDomainId: string,
  ): Promise<{ user: UserEntity; isAdmin: boolean; otherDomains: boolean } | null> {
    const membership = await em.findOneBy(UserSystemDomainEntity, {
      user_id: userId,
      system_domain_id: systemDomainId,
    });
    if (!membership) return null;
    const user = await em.findOneByOrFail(UserEntity, { id: userId });
    const otherDomains = await em.exists(UserSystemDomainEntity, {
      where: { user_id: userId, system_domain_id: Not(systemDomainId) },
    });
    return { user, isAdmin: membership.is_admin, otherDomains };
  }

  /** Which of these IdPs belong to the domain. */
  idsInDomain(ids: string[], systemDomainId: string): Promise<{ id: string }[]> {
    return this.ds.getRepository(IdentityProviderEntity).find({
      select: { id: true },
      where: { id: In(ids), system_domain_id: systemDomainId },
    });
  }

  /** Records an assertion id as seen: false when it was seen before (a replay). */
  async recordAssertion(idpId: string, assertionId: string, expires: Date): Promise<boolean> {
    // raw: INSERT … ON CONFLICT DO NOTHING RETURNING: the replay test and the record in one statement
    const fresh = returningRows(
      await this.ds.query(
        `INSERT INTO saml_assertion_ids (identity_provider_id, assertion_id, expires) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING assertion_id`,
        [idpId, assertionId, expires],
      ),
    );
    return fresh.length > 0;
  }

  async saveRequest(id: string, idpId: string, returnTo: string | null, expires: Date): Promise<void> {
    await this.ds
      .getRepository(SamlRequestEntity)
      .insert({ id, identity_provider_id: idpId, return_to: returnTo, expires });
  }

  /** When a live pending AuthnRequest expires, or undefined. */
  async pendingRequestExpiry(id: string, idpId: string): Promise<Date | undefined> {
    // raw: expiry against the database's now(), as the request's consumption checks it
    const rows = (await this.ds.query(
      'SELECT expires FROM saml_requests WHERE id = $1 AND identity_provider_id = $2 AND expires > now()',
      [id, idpId],
    )) as { expires: Date }[];
    return rows.length ? new Date(rows[0].expires) : undefined;
  }

  /** Takes a live pending AuthnRequest (once): whether there was one, and where it returns to. */
  async takeRequest(id: string, idpId: string): Promise<{ return_to: string | null } | undefined> {
    // raw: DELETE … RETURNING takes the row once; expiry against the database's now()
    const [consumed] = returningRows<{ return_to: string | null }>(
      await this.ds.query(
        `DELETE FROM saml_requests WHERE id = $1 AND identity_provider_id = $2 AND expires > now() RETURNING return_to`,
        [id, idpId],
      ),
    );
    return consumed;
  }

  /** Deletes expired pending requests, seen assertion ids and login codes. */
  async sweepExpired(): Promise<void> {
    // raw: expiry against the database's now(), one DELETE per table
    await this.ds.query('DELETE FROM saml_requests WHERE expires <= now()');
    // raw: as above
    await this.ds.query('DELETE FROM saml_assertion_ids WHERE expires <= now()');
    // raw: as above
    await this.ds.query('DELETE FROM saml_login_codes WHERE expires <= now()');
  }

  /**
   * The enabled IdP an email domain is routed to, in a live system domain, or undefined. Only a verified
   * binding routes (one per name: uq_identity_provider_domains_verified); a claim never verified routes no one.
   */
  async routedIdpId(emailDomain: string): Promise<string | undefined> {
    // raw: a three-table join with the deactivation date compared to the database's now()
    const rows = (await this.ds.query(
      `SELECT i.id FROM identity_provider_domains b JOIN identity_providers i ON i.id = b.identity_provider_id
         JOIN system_domains d ON d.id = i.system_domain_id
        WHERE b.domain = $1 AND b.verified_at IS NOT NULL AND i.enabled AND d.status <> 'DEACTIVATED'
          AND (d.deactivate_date IS NULL OR d.deactivate_date > now())`,
      [emailDomain.toLowerCase()],
    )) as { id: string }[];
    return rows[0]?.id;
  }

  /**
   * The user linked to this IdP's identity `email` (users/{id}/saml/ by an administrator, users/current/saml/
   * by the person: `bySelf`), if any.
   */
  async linkedUser(idpId: string, email: string): Promise<{ userId: string; bySelf: boolean } | undefined> {
    const row = await this.ds
      .getRepository(UserSamlIdentityEntity)
      .findOneBy({ identity_provider_id: idpId, email });
    return row ? { userId: row.user_id, bySelf: row.linked_by_self } : undefined;
  }

  /** Whether the user's own link (users/current/saml/) to this IdP stands. */
  selfLinked(idpId: string, userId: string): Promise<boolean> {
    return this.ds
      .getRepository(UserSamlIdentityEntity)
      .existsBy({ identity_provider_id: idpId, user_id: userId, linked_by_self: true });
  }

  /** Sets (or replaces) a user's SSO identity in a domain; a unique violation if another user has it. */
  async setUserIdentity(
    em: EntityManager,
    r: { userId: string; systemDomainId: string; idpId: string; email: string; bySelf: boolean },
  ): Promise<void> {
    // raw: ON CONFLICT on the (user, domain) key updates in place, while the (IdP, email) unique index still
    // refuses an identity another user holds (TypeORM's upsert cannot tell the two conflicts apart)
    await em.query(
      `INSERT INTO user_saml_identities (user_id, system_domain_id, identity_provider_id, email, linked_by_self)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, system_domain_id)
       DO UPDATE SET identity_provider_id = EXCLUDED.identity_provider_id, email = EXCLUDED.email,
                     linked_by_self = EXCLUDED.linked_by_self`,
      [r.userId, r.systemDomainId, r.idpId, r.email, r.bySelf],
    );
  }

  /**
   * Whether the email domain is bound to this IdP by a verified binding: what lets an assertion name a user by
   * email, or provision one (an unverified claim does neither).
   */
  isDomainBound(emailDomain: string, idpId: string): Promise<boolean> {
    return this.ds.getRepository(IdentityProviderDomainEntity).existsBy({
      domain: emailDomain.toLowerCase(),
      identity_provider_id: idpId,
      verified_at: Not(IsNull()),
    });
  }

  /** Takes a login code by its hash (once), live or not: the caller checks its expiry. */
  async takeLoginCode(codeSha256: string): Promise<TakenLoginCode | undefined> {
    // raw: DELETE … RETURNING takes the row once, whichever request comes first
    const [row] = returningRows<TakenLoginCode>(
      await this.ds.query(
        'DELETE FROM saml_login_codes WHERE code_sha256 = $1 RETURNING user_id, system_domain_id, identity_provider_id, expires',
        [codeSha256],
      ),
    );
    return row;
  }
}

/** Every column of an IdP, the sealed SP key included (it is not selected by default). */
const WITH_KEY = {
  id: true,
  public_id: true,
  system_domain_id: true,
  type: true,
  settings: true,
  verbose_logging: true,
  enabled: true,
  sp_private_key_sealed: true,
  sp_certificate: true,
  date_created: true,
  date_modified: true,
} as const;
