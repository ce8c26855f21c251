import type {
  EntityManager,
  EntityTarget,
  FindOptionsOrder,
  FindOptionsWhere,
  QueryDeepPartialEntity,
} from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';

/** What the ACL entries of assets and of collections share (their columns: base/model/acl-entry.ts). */
interface AclEntryRow {
  id: string;
  permissions: string[];
  date_created: Date;
}

/**
 * The statements on one kind of object's ACL entries (asset_acls: AssetsRepository, collection_acls:
 * CollectionAclsRepository). `K`, the key of one entry: the object's column with user_id or group_id.
 */
export abstract class AclEntriesRepository<
  E extends AclEntryRow,
  K extends FindOptionsWhere<E>,
> extends FeatureRepository {
  /** The entries' entity, and its column naming the object an entry is on. */
  protected abstract readonly aclEntity: EntityTarget<E>;
  protected abstract readonly aclObjectColumn: keyof E & string;

  /** One entry (a user's or a group's on an object), or null. */
  acl(em: EntityManager, key: K): Promise<E | null> {
    return em.findOneBy(this.aclEntity, key);
  }

  /** One entry with its row held for the transaction, or null. */
  lockAcl(em: EntityManager, key: K): Promise<E | null> {
    return em.findOne(this.aclEntity, { where: key, lock: { mode: 'pessimistic_write' } });
  }

  /** The entry (it exists: the caller just wrote it). */
  aclOrFail(em: EntityManager, key: K): Promise<E> {
    return em.findOneByOrFail(this.aclEntity, key);
  }

  async insertAcl(em: EntityManager, entry: K & { permissions: string[] }): Promise<void> {
    await em.insert(this.aclEntity, entry as QueryDeepPartialEntity<E>);
  }

  async setAclPermissions(em: EntityManager, id: string, permissions: string[]): Promise<void> {
    const changes: Partial<AclEntryRow> = { permissions };
    await em.update(this.aclEntity, { id } as FindOptionsWhere<E>, changes as QueryDeepPartialEntity<E>);
  }

  async deleteAcl(em: EntityManager, id: string): Promise<void> {
    await em.delete(this.aclEntity, { id } as FindOptionsWhere<E>);
  }

  /** The entries of an object, oldest first (the id breaks ties). */
  aclsOf(em: EntityManager, objectId: string): Promise<E[]> {
    return em.find(this.aclEntity, {
      where: { [this.aclObjectColumn]: objectId } as FindOptionsWhere<E>,
      order: { date_created: 'ASC', id: 'ASC' } as FindOptionsOrder<E>,
    });
  }
}
