import type { AccessService } from '../common/auth/access.service.js';
import type { AssetPermissionsService } from '../assets/asset-permissions.js';
import { FilesErrors } from './files.errors.js';

/**
 * `file.write`: a file (named in a body, e.g. a job's object) whose asset the caller may write; the asset's
 * ACL decides, through the same permissions the asset checkers use. Unreadable is 404, readable but not
 * writable 404 too here (the job simply cannot name it).
 */
export function registerFileAccess(
  access: AccessService,
  permissions: AssetPermissionsService,
  query: (sql: string, params: unknown[]) => Promise<{ id: string; asset_id: string }[]>,
): void {
  access.register('file.write', {
    label: 'File',
    notFound: () => FilesErrors.FILE_NOT_FOUND(),
    find: async (auth, ids) => {
      const files = await query(
        `SELECT f.id, f.asset_id FROM files f JOIN assets a ON a.id = f.asset_id
          WHERE f.id = ANY($1::uuid[]) AND a.system_domain_id = $2 AND f.date_deleted IS NULL`,
        [ids, auth.systemDomainId],
      );
      const perms = await permissions.readable(auth, [...new Set(files.map((f) => f.asset_id))]);
      return files.filter((f) => perms.get(f.asset_id)?.includes('write'));
    },
  });
}
