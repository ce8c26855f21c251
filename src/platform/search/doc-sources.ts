import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { seesAllAssets } from '../assets/asset-acl-sql.js';
import type { DocSource } from './criteria-sql.js';

const ASSET_COLUMNS: Record<string, string> = {
  id: 'a.id',
  title: 'a.title',
  doc_type: "'assets'::text",
  type: 'a.type',
  status: 'a.status',
  analyze_status: 'a.analyze_status',
  archive_status: 'a.archive_status',
  external_id: 'a.external_id',
  is_online: 'a.is_online',
  media_type: 'a.media_type',
  created_by_user: 'a.created_by_user',
  date_created: 'a.date_created',
  date_modified: 'a.date_modified',
};

const COLLECTION_COLUMNS: Record<string, string> = {
  id: 'c.id',
  title: 'c.title',
  doc_type: "'collections'::text",
  status: 'c.status',
  external_id: 'c.external_id',
  category: 'c.category',
  parent_id: 'c.parent_id',
  created_by_user: 'c.created_by_user',
  date_created: 'c.date_created',
  date_modified: 'c.date_modified',
};

/** Assets (alias `a`): their columns, and the metadata values of their current version. */
export const ASSET_SOURCE: DocSource = {
  objectType: 'assets',
  column: (name) => (Object.hasOwn(ASSET_COLUMNS, name) ? ASSET_COLUMNS[name] : null),
  metadata: (field) => ({
    from: 'metadata_values mv',
    where: `mv.asset_id = a.id AND mv.version_id = a.current_version_id AND mv.field_name = ${field}`,
  }),
};

/** Whether collections' metadata values are searched (`collection_metadata_values`, the metadata feature's). */
export const COLLECTION_METADATA = true;

/** Collections (alias `c`): their columns, and their metadata values (collections have no versions). */
export const COLLECTION_SOURCE: DocSource = {
  objectType: 'collections',
  column: (name) => (Object.hasOwn(COLLECTION_COLUMNS, name) ? COLLECTION_COLUMNS[name] : null),
  metadata: (field) =>
    COLLECTION_METADATA
      ? {
          from: 'collection_metadata_values mv',
          where: `mv.collection_id = c.id AND mv.field_name = ${field}`,
        }
      : null,
};

/**
 * SQL condition: the caller may read collection `c`, by the rules of assets: a domain administrator reads
 * every collection of the domain; anyone else through a `read` entry of their own or of one of their groups
 * in `collection_acls` (the creator gets an entry when the collection is made). `userParam` is the caller's
 * id; null for an administrator.
 */
export function collectionReadableSql(auth: AuthContext, userParam: string | null): string {
  if (seesAllAssets(auth) || userParam === null) return 'TRUE';
  return `(EXISTS (SELECT 1 FROM collection_acls cacl WHERE cacl.collection_id = c.id AND cacl.user_id = ${userParam} AND 'read' = ANY(cacl.permissions))
    OR EXISTS (SELECT 1 FROM collection_acls cacl JOIN group_members gm ON gm.group_id = cacl.group_id
                WHERE cacl.collection_id = c.id AND gm.user_id = ${userParam} AND 'read' = ANY(cacl.permissions)))`;
}

/** The caller's permissions on collection `c` (null for an administrator: all of them). */
export function collectionPermissionsSql(auth: AuthContext, userParam: string | null): string {
  if (seesAllAssets(auth) || userParam === null) return 'NULL::text[]';
  return `(SELECT array_agg(DISTINCT perm) FROM collection_acls cacl CROSS JOIN LATERAL unnest(cacl.permissions) perm
            WHERE cacl.collection_id = c.id AND (cacl.user_id = ${userParam}
              OR cacl.group_id IN (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = ${userParam})))`;
}
