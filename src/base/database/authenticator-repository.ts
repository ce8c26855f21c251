import type { EntityManager, EntityTarget, FindOptionsWhere, SelectQueryBuilder } from 'typeorm';
import { IdentityProviderDomainEntity } from '../model/identity-provider.entity.js';
import { FeatureRepository } from './feature-repository.js';

/** What a tenant's authenticator row has (a directory, an OpenID provider). */
export interface AuthenticatorRow {
  id: string;
  system_domain_id: string;
  enabled: boolean;
  date_created: Date;
}

/**
 * The statements every tenant-configured authenticator shares (a domain's directories, its OpenID providers):
 * one domain's rows with their sealed secret (`secret`, a column never selected by default), one row, the
 * enabled ones oldest first, save, delete, and the email domains bound to rows (`bindingColumn` of
 * identity_provider_domains). A subclass names its entity, alias and columns.
 */
export abstract class AuthenticatorRepository<E extends AuthenticatorRow> extends FeatureRepository {
  protected abstract readonly entity: EntityTarget<E>;
  /** The alias of listQuery's rows (what pageList sorts by). */
  abstract readonly alias: string;
  protected abstract readonly secret: keyof E & string;
  protected abstract readonly bindingColumn: 'directory_id' | 'oidc_provider_id';

  /** One domain's rows with their sealed secret (the view says whether there is one); pageList pages it. */
  listQuery(systemDomainId: string): SelectQueryBuilder<E> {
    return this.domainQuery(this.entity, this.alias, systemDomainId).addSelect(
      `${this.alias}.${this.secret}`,
    );
  }

  inDomain(id: string, systemDomainId: string): Promise<E | null> {
    return this.listQuery(systemDomainId).andWhere(`${this.alias}.id = :id`, { id }).getOne();
  }

  /** A row by a unique column (its id, a public id), with its sealed secret. */
  withSecret(where: { id: string } | Record<string, string>): Promise<E | null> {
    return this.withSecretQuery().where(where).getOne();
  }

  /** A domain's enabled rows, oldest first, with their sealed secret (a sign-in connects with one). */
  enabledOf(systemDomainId: string): Promise<E[]> {
    return this.listQuery(systemDomainId)
      .andWhere(`${this.alias}.enabled`)
      .orderBy(`${this.alias}.date_created`, 'ASC')
      .addOrderBy(`${this.alias}.id`, 'ASC')
      .getMany();
  }

  save(em: EntityManager, row: E): Promise<E> {
    return em.save(this.entity, row);
  }

  async remove(em: EntityManager, id: string): Promise<void> {
    await em.delete(this.entity, { id } as FindOptionsWhere<E>);
  }

  /** The email domains bound to these rows. */
  async domainsOf(ids: string[]): Promise<{ id: string; domain: string }[]> {
    if (!ids.length) return [];
    const column = this.bindingColumn;
    const rows = await this.ds
      .getRepository(IdentityProviderDomainEntity)
      .createQueryBuilder('b')
      .select([`b.${column}`, 'b.domain'])
      .where(`b.${column} IN (:...ids)`, { ids })
      .orderBy('b.domain')
      .getMany();
    return rows.map((r) => ({ id: r[column]!, domain: r.domain }));
  }

  private withSecretQuery(): SelectQueryBuilder<E> {
    return this.ds
      .getRepository(this.entity)
      .createQueryBuilder(this.alias)
      .addSelect(`${this.alias}.${this.secret}`);
  }
}
