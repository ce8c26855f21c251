import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { seesAllAssets } from './asset-acl-sql.js';

/**
 * The SQL fragments of collection access, as asset-acl-sql.ts is for assets: shared by the collections
 * repository and by features that list collections (search). Pure strings: this file imports no repository.
 */

/** Domain administrators (and super administrators) hold every permission on every collection too. */
export const seesAllCollections = (auth: AuthContext): boolean => seesAllAssets(auth);

/** The collection ACL entries (alias `cacl`) that apply to user `userParam`: their own and their groups'. */
export const collectionAclAppliesTo = (userParam: string) =>
  `(cacl.user_id = ${userParam} OR cacl.group_id IN (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = ${userParam}))`;

/**
 * SQL condition: the caller may read collection `alias` (through their own entry or one of their groups').
 * Part of every query that lists collections or their contents, so what a caller may not read is never
 * counted, paged or faceted. `userParam` is the caller's id parameter (unused for administrators: 'TRUE').
 */
export function collectionReadableSql(auth: AuthContext, alias: string, userParam: string): string {
  if (seesAllCollections(auth)) return 'TRUE';
  return `(EXISTS (SELECT 1 FROM collection_acls cacl WHERE cacl.collection_id = ${alias}.id AND cacl.user_id = ${userParam} AND 'read' = ANY(cacl.permissions))
    OR EXISTS (SELECT 1 FROM collection_acls cacl JOIN group_members gm ON gm.group_id = cacl.group_id
                WHERE cacl.collection_id = ${alias}.id AND gm.user_id = ${userParam} AND 'read' = ANY(cacl.permissions)))`;
}
