import { Injectable } from '@nestjs/common';
import { type EntityManager, In, IsNull, type SelectQueryBuilder } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { insertRow } from '../../base/database/insert-row.js';
import { escapeLike } from '../../base/database/sql-helpers.js';
import { AssetAclEntity } from '../../base/model/asset-acl.entity.js';
import { AssetEntity, AssetVersionEntity } from '../../base/model/asset.entity.js';
import { AclEntriesRepository } from './acl-entries.repository.js';
import { appliesTo, readableSql } from './asset-acl-sql.js';
import { collectionReadableSql } from './collection-acl-sql.js';
import { SEARCH_DOCUMENT_SQL } from './search-document.js';

/** One row of a page of assets (pageRows): the asset, the caller's permissions, its versions, its metadata. */
export type PageRow = AssetEntity & {
  permissions: string[] | null;
  versions: (Omit<AssetVersionEntity, 'date_created'> & { date_created: string })[];
  metadata: Record<string, unknown[]> | null;
  /** The collections containing it that the caller may read. */
  in_collections: string[] | null;
};

/** Whose ACL entry on which asset: a user's or a group's. */
export type AclKey = { asset_id: string; user_id: string } | { asset_id: string; group_id: string };

/**
 * The assets' door to the database: assets, their versions and their ACL entries. Methods that take part in
 * a change take the change's EntityManager (`transaction(work)` opens it); reads outside one get `manager`.
 */
@Injectable()
export class AssetsRepository extends AclEntriesRepository<AssetAclEntity, AclKey> {
  protected readonly aclEntity = AssetAclEntity;
  protected readonly aclObjectColumn = 'asset_id';

  // ---- assets and versions

  /** Inserts a new asset; the entity it answers carries the generated id. */
  insertAsset(em: EntityManager, fields: Partial<AssetEntity>): Promise<AssetEntity> {
    return insertRow(em, AssetEntity, fields);
  }

  /** Inserts a version of an asset; the entity it answers carries the generated id. */
  insertVersion(em: EntityManager, fields: Partial<AssetVersionEntity>): Promise<AssetVersionEntity> {
    return insertRow(em, AssetVersionEntity, fields);
  }

  async updateAsset(em: EntityManager, id: string, changes: Partial<AssetEntity>): Promise<void> {
    await em.update(AssetEntity, { id }, changes);
  }

  /** The asset of the domain (deleted ones too), or null. */
  inDomain(em: EntityManager, id: string, systemDomainId: string): Promise<AssetEntity | null> {
    return em.findOneBy(AssetEntity, { id, system_domain_id: systemDomainId });
  }

  /** The asset of the domain (deleted ones too) with its row held for the transaction, or null. */
  lockInDomain(em: EntityManager, id: string, systemDomainId: string): Promise<AssetEntity | null> {
    return em.findOne(AssetEntity, {
      where: { id, system_domain_id: systemDomainId },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** The asset (it exists: the caller just changed it). */
  assetOrFail(em: EntityManager, id: string): Promise<AssetEntity> {
    return em.findOneByOrFail(AssetEntity, { id });
  }

  /** The versions of these assets, oldest first (the id breaks ties). */
  versionsOf(em: EntityManager, assetIds: string[]): Promise<AssetVersionEntity[]> {
    return em.find(AssetVersionEntity, {
      where: { asset_id: In(assetIds) },
      order: { date_created: 'ASC', id: 'ASC' },
    });
  }

  /**
   * The live assets of the domain the caller may read whose title contains `text` (all without it), for
   * pageList.
   */
  readableQuery(auth: AuthContext, text: string | undefined): SelectQueryBuilder<AssetEntity> {
    const qb = this.ds
      .getRepository(AssetEntity)
      .createQueryBuilder('a')
      .where('a.system_domain_id = :domainId', { domainId: auth.systemDomainId })
      .andWhere('a.date_deleted IS NULL')
      .andWhere(readableSql(auth, 'a', ':userId'), { userId: auth.userId });
    if (text) qb.andWhere('a.title ILIKE :q', { q: `%${escapeLike(text)}%` });
    return qb;
  }

  /** Of `ids`, the assets of the domain that are not deleted. */
  async liveIdsInDomain(em: EntityManager, ids: string[], systemDomainId: string): Promise<string[]> {
    const rows = await em.getRepository(AssetEntity).find({
      select: { id: true },
      where: { id: In(ids), system_domain_id: systemDomainId, date_deleted: IsNull() },
    });
    return rows.map((r) => r.id);
  }

  // ---- ACL entries

  /** Of `ids`, the live assets of the domain, each with the permissions the user holds through the ACL. */
  async aclPermissions(
    em: EntityManager,
    ids: string[],
    systemDomainId: string,
    userId: string,
  ): Promise<{ id: string; permissions: string[] | null }[]> {
    // raw: array_agg(DISTINCT …) over unnest(acl.permissions) with the shared ACL condition (appliesTo)
    return (await em.query(
      `SELECT a.id,
              (SELECT array_agg(DISTINCT p) FROM asset_acls acl CROSS JOIN LATERAL unnest(acl.permissions) p
                WHERE acl.asset_id = a.id AND ${appliesTo('$3')}) AS permissions
         FROM assets a
        WHERE a.id = ANY($1::uuid[]) AND a.system_domain_id = $2 AND a.date_deleted IS NULL`,
      [ids, systemDomainId, userId],
    )) as { id: string; permissions: string[] | null }[];
  }

  // ---- pages and the search document

  /** A page of assets with versions, the caller's permissions (unless `all`) and current metadata. */
  async pageRows(em: EntityManager, auth: AuthContext, ids: string[], all: boolean): Promise<PageRow[]> {
    // raw: json_agg / json_object_agg / jsonb_array_elements subqueries build the page in one statement
    return (await em.query(
      `SELECT a.id, a.system_domain_id, a.title, a.type, a.status, a.analyze_status, a.archive_status,
            a.external_id, a.is_online, a.media_type, a.current_version_id, a.created_by_user,
            a.deleted_by_user, a.date_deleted, a.date_created, a.date_modified,
            ${
              all
                ? 'NULL::text[]'
                : `(SELECT array_agg(DISTINCT p) FROM asset_acls acl CROSS JOIN LATERAL unnest(acl.permissions) p
                     WHERE acl.asset_id = a.id AND ${appliesTo('$3')})`
            } AS permissions,
            (SELECT coalesce(json_agg(json_build_object(
                      'id', v.id, 'asset_id', v.asset_id, 'analyze_status', v.analyze_status,
                      'archive_status', v.archive_status, 'status', v.status,
                      'transcribe_status', v.transcribe_status, 'is_online', v.is_online,
                      'created_by_user', v.created_by_user, 'date_created', v.date_created)
                    ORDER BY v.date_created, v.id), '[]'::json)
               FROM asset_versions v WHERE v.asset_id = a.id) AS versions,
            (SELECT json_object_agg(mv.field_name,
                      (SELECT coalesce(jsonb_agg(e.item -> 'value'), '[]'::jsonb)
                         FROM jsonb_array_elements(mv.field_values) AS e(item))
                    ORDER BY mv.field_name)
               FROM metadata_values mv
              WHERE mv.asset_id = a.id AND mv.version_id = a.current_version_id) AS metadata,
            (SELECT array_agg(cc.collection_id ORDER BY cc.date_created, cc.id)
               FROM collection_contents cc JOIN collections c ON c.id = cc.collection_id
              WHERE cc.object_type = 'asset' AND cc.object_id = a.id AND c.system_domain_id = $2
                AND c.date_deleted IS NULL AND ${collectionReadableSql(auth, 'c', '$3')}) AS in_collections
       FROM assets a
      WHERE a.id = ANY($1::uuid[]) AND a.system_domain_id = $2 AND a.date_deleted IS NULL`,
      all ? [ids, auth.systemDomainId] : [ids, auth.systemDomainId, auth.userId],
    )) as PageRow[];
  }

  /** Rebuilds the search document of one asset (after its title or its metadata changed). */
  async refreshSearchDocument(em: EntityManager, assetId: string): Promise<void> {
    // raw: to_tsvector/setweight over jsonb_array_elements of the metadata (SEARCH_DOCUMENT_SQL)
    await em.query(`UPDATE assets a SET search_vector = ${SEARCH_DOCUMENT_SQL} WHERE a.id = $1`, [assetId]);
  }
}
