import type { AccessService } from '../../base/common/auth/access.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { seesAllAssets } from '../assets/asset-acl-sql.js';
import { JobsErrors } from './jobs.errors.js';

export const JOB_ACCESS = { read: 'job', write: 'job.write' } as const;

/** SQL: the caller holds `permission` on asset `assetExpr` (through their ACL entries or their groups'). */
function holds(assetExpr: string, permission: 'read' | 'write', userParam: string): string {
  return `EXISTS (SELECT 1 FROM assets a WHERE a.id = ${assetExpr} AND a.date_deleted IS NULL AND (
      EXISTS (SELECT 1 FROM asset_acls acl WHERE acl.asset_id = a.id AND acl.user_id = ${userParam} AND '${permission}' = ANY(acl.permissions))
   OR EXISTS (SELECT 1 FROM asset_acls acl JOIN group_members gm ON gm.group_id = acl.group_id
               WHERE acl.asset_id = a.id AND gm.user_id = ${userParam} AND '${permission}' = ANY(acl.permissions))))`;
}

/**
 * SQL condition: job `j` is the caller's to see (`read`) or change (`write`): a domain administrator's for
 * every job of the domain; otherwise their own, or one about an asset (object_type assets) or a file
 * (files) whose asset's ACL gives the caller that permission. The caller's id is `userParam`.
 */
export function jobAllowedSql(
  auth: AuthContext,
  j: string,
  permission: 'read' | 'write',
  userParam: string,
): string {
  // (the caller's id is still named: a statement's parameters are typed from their use)
  if (seesAllAssets(auth)) return `(${userParam}::uuid IS NOT NULL)`;
  return `(${j}.created_by_user = ${userParam}
    OR (${j}.object_type = 'assets' AND ${holds(`${j}.object_id`, permission, userParam)})
    OR (${j}.object_type = 'files' AND ${holds(`(SELECT f.asset_id FROM files f WHERE f.id = ${j}.object_id)`, permission, userParam)}))`;
}

/** What answers the access check: which of these jobs the caller may read or write (JobsRepository). */
export interface JobAccessSource {
  allowedIds(auth: AuthContext, ids: string[], permission: 'read' | 'write'): Promise<{ id: string }[]>;
}

export function registerJobAccess(access: AccessService, repo: JobAccessSource): void {
  for (const permission of ['read', 'write'] as const) {
    access.register(JOB_ACCESS[permission], {
      label: 'Job',
      notFound: () => JobsErrors.NOT_FOUND(),
      find: (auth, ids) => repo.allowedIds(auth, ids, permission),
    });
  }
}
