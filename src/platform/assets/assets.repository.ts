import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, In, IsNull } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { PageRow } from './asset-page.js';
import { appliesTo } from './asset-permissions.js';
import { AssetEntity } from '../../base/model/asset.entity.js';
import { SEARCH_DOCUMENT_SQL } from './search-document.js';

/**
 * The asset statements that are not the query builder's: the permissions through the ACL, a page of readable
 * assets in one statement, the search document. Every method takes the caller's EntityManager (they run in
 * the change's transaction or a request's read).
 */
@Injectable()
export class AssetsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Of `ids`, the assets of the domain that are not deleted. */
  async liveIdsInDomain(em: EntityManager, ids: string[], systemDomainId: string): Promise<string[]> {
    const rows = await em.getRepository(AssetEntity).find({
      select: { id: true },
      where: { id: In(ids), system_domain_id: systemDomainId, date_deleted: IsNull() },
    });
    return rows.map((r) => r.id);
  }

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
              WHERE mv.asset_id = a.id AND mv.version_id = a.current_version_id) AS metadata
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
