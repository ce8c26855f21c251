import { Injectable } from '@nestjs/common';
import { IsNull, MoreThan, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { preparedQuery } from '../../base/database/prepared-query.js';
import { AppInstanceEntity } from '../../base/model/app-instance.entity.js';
import { AppEntity } from '../../base/model/app.entity.js';
import { ExternalAuthEntity } from '../../base/model/external-auth.entity.js';

/** An OAuth client's record by id (client secret hash included), never the built-in app. */
const CLIENT_SQL = `SELECT a.* FROM apps a WHERE a.id = $1 AND NOT a.is_builtin`;

/**
 * Every statement on apps and their external-auth hand-overs (external_auths, app_instances), for AppsService
 * ExternalAuthService and the ClientRegistry's read, so the services hold the rules (who may change what, what a collection yields) and
 * are unit-tested with a fake of this class. Methods that belong to a larger change take the transaction's
 * EntityManager (`transaction()`).
 */
@Injectable()
export class AppsRepository extends FeatureRepository {
  /** The domain's own apps (the built-in sign-in app left out): a fresh query builder each call, for cursorPage. */
  inDomain(systemDomainId: string): SelectQueryBuilder<AppEntity> {
    return this.domainQuery(AppEntity, 'a', systemDomainId).andWhere('NOT a.is_builtin');
  }

  /**
   * The ClientRegistry's read of a client on a cache miss: a named prepared statement (the grants' hot path),
   * the row as the database returns it, or undefined.
   */
  async client(id: string): Promise<AppEntity | undefined> {
    const [row] = await preparedQuery<AppEntity>(this.ds, 'portcullis_client_lookup', CLIENT_SQL, [id]);
    return row;
  }

  /** One of the domain's own apps (never the built-in one), or null. */
  findInDomain(systemDomainId: string, id: string): Promise<AppEntity | null> {
    return this.ds
      .getRepository(AppEntity)
      .findOneBy({ id, system_domain_id: systemDomainId, is_builtin: false });
  }

  /** An app by id, whatever its domain (the caller checked access), or null. */
  byId(id: string, em: EntityManager = this.ds.manager): Promise<AppEntity | null> {
    return em.getRepository(AppEntity).findOneBy({ id });
  }

  /** One of the domain's own apps by name, or null. */
  byName(systemDomainId: string, name: string): Promise<AppEntity | null> {
    return this.ds
      .getRepository(AppEntity)
      .findOneBy({ name, system_domain_id: systemDomainId, is_builtin: false });
  }

  /** A new app in the caller's transaction: the row as saved (id and dates filled in). */
  create(em: EntityManager, values: Partial<AppEntity>): Promise<AppEntity> {
    return em.save(em.create(AppEntity, values));
  }

  /** Saves a changed app in the caller's transaction: the row as saved. */
  save(em: EntityManager, app: AppEntity): Promise<AppEntity> {
    return em.save(app);
  }

  /** Deletes an app (its tokens go with it: ON DELETE CASCADE). */
  async remove(em: EntityManager, id: string): Promise<void> {
    await em.delete(AppEntity, { id });
  }

  /** Stores an external-auth approval (a unique violation when its secret was used before). */
  async insertExternalAuth(
    values: Pick<
      ExternalAuthEntity,
      'secret_hash' | 'system_domain_id' | 'app_id' | 'user_id' | 'redirect_info' | 'rights_cap' | 'expires'
    >,
  ): Promise<void> {
    await this.ds.getRepository(ExternalAuthEntity).insert(values);
  }

  /** The approval with this secret's hash still to collect and not expired at `now`, or null. */
  pendingExternalAuth(em: EntityManager, secretHash: string, now: Date): Promise<ExternalAuthEntity | null> {
    return em.getRepository(ExternalAuthEntity).findOneBy({
      secret_hash: secretHash,
      token_id: IsNull(),
      expires: MoreThan(now),
    });
  }

  /** Claims an approval for the token collected (only while unclaimed): whether this call claimed it. */
  async claimExternalAuth(em: EntityManager, id: string, tokenId: string): Promise<boolean> {
    const claimed = await em
      .getRepository(ExternalAuthEntity)
      .update({ id, token_id: IsNull() }, { token_id: tokenId });
    return !!claimed.affected;
  }

  /**
   * Stores an approved app instance; insert, never save(): save() would update an existing instance with this
   * id, whoever approved it (a unique violation instead). The row as stored.
   */
  async insertInstance(
    values: Pick<AppInstanceEntity, 'id' | 'app_id' | 'user_id' | 'system_domain_id' | 'rights_cap'>,
  ): Promise<AppInstanceEntity> {
    const repo = this.ds.getRepository(AppInstanceEntity);
    await repo.insert(values);
    return repo.findOneByOrFail({ id: values.id });
  }

  /** The user's approved instance in the domain, not yet collected, or null. */
  pendingInstance(
    em: EntityManager,
    k: { id: string; userId: string; systemDomainId: string },
  ): Promise<AppInstanceEntity | null> {
    return em.getRepository(AppInstanceEntity).findOneBy({
      id: k.id,
      token_id: IsNull(),
      user_id: k.userId,
      system_domain_id: k.systemDomainId,
    });
  }

  /** Claims an instance for the token collected (only while unclaimed): whether this call claimed it. */
  async claimInstance(em: EntityManager, id: string, tokenId: string): Promise<boolean> {
    const claimed = await em
      .getRepository(AppInstanceEntity)
      .update({ id, token_id: IsNull() }, { token_id: tokenId });
    return !!claimed.affected;
  }

  /** An approved instance in the domain, collected or not, or null. */
  instanceInDomain(systemDomainId: string, id: string): Promise<AppInstanceEntity | null> {
    return this.ds.getRepository(AppInstanceEntity).findOneBy({ id, system_domain_id: systemDomainId });
  }

  async removeInstance(em: EntityManager, id: string): Promise<void> {
    await em.getRepository(AppInstanceEntity).delete({ id });
  }
}
