import type { AuthContext } from '../../base/common/auth/auth-context.js';

/**
 * The SQL fragments of asset access, shared by the assets repository and by the statements of the features
 * that list assets or what hangs off them (search, jobs). Pure strings: this file imports no repository.
 */

/** Domain administrators (and super administrators) hold every permission on every asset of the domain. */
export const seesAllAssets = (auth: AuthContext): boolean => auth.isAdmin || auth.isSuperAdmin;

/** The ACL entries that apply to user `userParam`: their own and their groups'. */
export const appliesTo = (userParam: string) =>
  `(acl.user_id = ${userParam} OR acl.group_id IN (SELECT gm.group_id FROM group_members gm WHERE gm.user_id = ${userParam}))`;

/**
 * The caller's groups, once per statement: the body of a MATERIALIZED CTE (one row, column `ids`, the ids of
 * the groups user `userParam` is a member of) for readableSql's per-candidate form, which names its `ids`.
 */
export const callerGroupsSql = (userParam: string) =>
  `SELECT ARRAY(SELECT gm.group_id FROM group_members gm WHERE gm.user_id = ${userParam}) AS ids`;

/**
 * SQL condition: the caller may read asset `alias`. Part of every query that lists or searches assets, so
 * what a caller may not read is never counted, paged or faceted. `userParam` is the caller's id parameter.
 *
 * `perCandidate` (the `ids` column of a callerGroupsSql CTE): for queries whose other conditions already pick
 * few assets (a full-text match), each candidate is checked by its own index lookups, always: the user's
 * entry (ix_asset_acls_user_read, an index-only lookup), then an entry of one of the caller's groups, which
 * are read once per statement rather than once per candidate. Without it PostgreSQL may instead read and hash
 * every ACL entry of the caller once (a "hashed SubPlan"), which its cost model prefers from a few hundred
 * estimated candidates on: 50,000 entries took 50 – 180 ms where 360 lookups take about 1 ms. `OFFSET 0`
 * is what keeps the EXISTS from being rewritten into that hashable form (PostgreSQL's simplify_EXISTS_query
 * gives up on an OFFSET). The groups come from a CTE, not a sub-select inside the EXISTS, because the planner
 * would charge that sub-select to every candidate: at a million assets that estimate alone put a one-word
 * search above jit_above_cost, and JIT compilation then took 30 ms of the search.
 */
export function readableSql(
  auth: AuthContext,
  alias: string,
  userParam: string,
  { perCandidate }: { perCandidate?: { groups: string } } = {},
): string {
  if (seesAllAssets(auth)) return 'TRUE';
  if (perCandidate) {
    return `(EXISTS (SELECT 1 FROM asset_acls acl WHERE acl.asset_id = ${alias}.id AND acl.user_id = ${userParam} AND 'read' = ANY(acl.permissions) OFFSET 0)
    OR EXISTS (SELECT 1 FROM asset_acls acl WHERE acl.asset_id = ${alias}.id AND acl.group_id = ANY(${perCandidate.groups}) AND 'read' = ANY(acl.permissions) OFFSET 0))`;
  }
  // two EXISTS, not one with an OR inside: each is an index lookup per candidate asset (uq_asset_acls_user,
  // uq_asset_acls_group), where the OR made PostgreSQL hash every ACL entry of the domain (147 ms → 4 ms for a
  // one-word search over 100,000 assets)
  return `(EXISTS (SELECT 1 FROM asset_acls acl WHERE acl.asset_id = ${alias}.id AND acl.user_id = ${userParam} AND 'read' = ANY(acl.permissions))
    OR EXISTS (SELECT 1 FROM asset_acls acl JOIN group_members gm ON gm.group_id = acl.group_id
                WHERE acl.asset_id = ${alias}.id AND gm.user_id = ${userParam} AND 'read' = ANY(acl.permissions)))`;
}
