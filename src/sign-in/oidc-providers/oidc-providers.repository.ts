import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { returningRows } from '../../base/database/returning-rows.js';
import {
  OidcLoginCodeEntity,
  OidcLoginStateEntity,
  OidcProviderEntity,
} from '../../base/model/federation.entity.js';
import { IdentityProviderDomainEntity } from '../../base/model/identity-provider.entity.js';

/** The statements of OpenID providers and their sign-ins (OidcProvidersService, OidcLoginService). */
@Injectable()
export class OidcProvidersRepository extends FeatureRepository {
  /** One domain's providers, with the sealed secret (the view says whether there is one). */
  listQuery(systemDomainId: string) {
    return this.ds
      .getRepository(OidcProviderEntity)
      .createQueryBuilder('o')
      .addSelect('o.client_secret_sealed')
      .where('o.system_domain_id = :systemDomainId', { systemDomainId });
  }

  inDomain(id: string, systemDomainId: string): Promise<OidcProviderEntity | null> {
    return this.listQuery(systemDomainId).andWhere('o.id = :id', { id }).getOne();
  }

  /** A provider by id or by public id, with its sealed secret. */
  withSecret(where: { id: string } | { public_id: string }): Promise<OidcProviderEntity | null> {
    return this.ds
      .getRepository(OidcProviderEntity)
      .createQueryBuilder('o')
      .addSelect('o.client_secret_sealed')
      .where(where)
      .getOne();
  }

  /** A domain's enabled providers, oldest first (the sign-in pages' "Continue with …" buttons). */
  enabledOf(systemDomainId: string): Promise<OidcProviderEntity[]> {
    return this.ds.getRepository(OidcProviderEntity).find({
      where: { system_domain_id: systemDomainId, enabled: true },
      order: { date_created: 'ASC', id: 'ASC' },
    });
  }

  save(em: EntityManager, row: OidcProviderEntity): Promise<OidcProviderEntity> {
    return em.save(OidcProviderEntity, row);
  }

  async remove(em: EntityManager, id: string): Promise<void> {
    await em.delete(OidcProviderEntity, { id });
  }

  async domainsOf(ids: string[]): Promise<{ oidc_provider_id: string; domain: string }[]> {
    if (!ids.length) return [];
    const rows = await this.ds
      .getRepository(IdentityProviderDomainEntity)
      .createQueryBuilder('b')
      .select(['b.oidc_provider_id', 'b.domain'])
      .where('b.oidc_provider_id IN (:...ids)', { ids })
      .orderBy('b.domain')
      .getMany();
    return rows.map((r) => ({ oidc_provider_id: r.oidc_provider_id!, domain: r.domain }));
  }

  async insertState(row: Omit<OidcLoginStateEntity, 'oidc_provider'>): Promise<void> {
    await this.ds.getRepository(OidcLoginStateEntity).insert(row);
  }

  /** Takes a sign-in under way by its state's hash (once), live or not: the caller checks its expiry. */
  async takeState(stateSha256: string, providerId: string): Promise<OidcLoginStateEntity | undefined> {
    // raw: DELETE … RETURNING takes the row once, whichever request comes first
    const [row] = returningRows<OidcLoginStateEntity>(
      await this.ds.query(
        `DELETE FROM oidc_login_states WHERE state_sha256 = $1 AND oidc_provider_id = $2
         RETURNING state_sha256, oidc_provider_id, code_verifier_sealed, nonce, return_to, expires`,
        [stateSha256, providerId],
      ),
    );
    return row;
  }

  async insertCode(row: Omit<OidcLoginCodeEntity, 'oidc_provider' | 'system_domain'>): Promise<void> {
    await this.ds.getRepository(OidcLoginCodeEntity).insert(row);
  }

  /** Takes a return's code by its hash (once), live or not: the caller checks its expiry. */
  async takeCode(codeSha256: string): Promise<OidcLoginCodeEntity | undefined> {
    const [row] = returningRows<OidcLoginCodeEntity>(
      await this.ds.query(
        `DELETE FROM oidc_login_codes WHERE code_sha256 = $1
         RETURNING code_sha256, user_id, system_domain_id, oidc_provider_id, expires`,
        [codeSha256],
      ),
    );
    return row;
  }

  /** Deletes sign-ins and codes past their time (indexed on `expires`). */
  async sweepExpired(): Promise<void> {
    await this.ds.query('DELETE FROM oidc_login_states WHERE expires < now()');
    await this.ds.query('DELETE FROM oidc_login_codes WHERE expires < now()');
  }
}
