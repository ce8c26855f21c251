import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CollectionAclEntity } from '../../base/model/collection.entity.js';
import { AclEntriesRepository } from './acl-entries.repository.js';
import { collectionAclAppliesTo } from './collection-acl-sql.js';

/** Whose ACL entry on which collection: a user's or a group's. */
export type CollectionAclKey =
  { collection_id: string; user_id: string } | { collection_id: string; group_id: string };

/** The collections' ACL entries, and the permissions a user holds through them. */
@Injectable()
export class CollectionAclsRepository extends AclEntriesRepository<CollectionAclEntity, CollectionAclKey> {
  protected readonly aclEntity = CollectionAclEntity;
  protected readonly aclObjectColumn = 'collection_id';

  /**
   * Of `ids`, the collections of the domain (live ones, or with `deleted` those in the delete queue), each
   * with the permissions the user holds through the ACL (null: none).
   */
  async aclPermissions(
    em: EntityManager,
    ids: string[],
    systemDomainId: string,
    userId: string,
    deleted = false,
  ): Promise<{ id: string; permissions: string[] | null }[]> {
    // raw: array_agg(DISTINCT …) over unnest(cacl.permissions) with the shared ACL condition
    return (await em.query(
      `SELECT c.id,
              (SELECT array_agg(DISTINCT p) FROM collection_acls cacl CROSS JOIN LATERAL unnest(cacl.permissions) p
                WHERE cacl.collection_id = c.id AND ${collectionAclAppliesTo('$3')}) AS permissions
         FROM collections c
        WHERE c.id = ANY($1::uuid[]) AND c.system_domain_id = $2
          AND c.date_deleted IS ${deleted ? 'NOT NULL' : 'NULL'}`,
      [ids, systemDomainId, userId],
    )) as { id: string; permissions: string[] | null }[];
  }

  /** Of `ids`, the collections of the domain, live (or with `deleted` those in the delete queue). */
  async idsInDomain(
    em: EntityManager,
    ids: string[],
    systemDomainId: string,
    deleted = false,
  ): Promise<string[]> {
    // raw: the same filter as aclPermissions without the ACL
    const rows = (await em.query(
      `SELECT c.id FROM collections c WHERE c.id = ANY($1::uuid[]) AND c.system_domain_id = $2
          AND c.date_deleted IS ${deleted ? 'NOT NULL' : 'NULL'}`,
      [ids, systemDomainId],
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }
}
