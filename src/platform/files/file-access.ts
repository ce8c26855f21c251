import type { AccessService } from '../../base/common/auth/access.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AssetPermission } from '../../base/model/asset-acl.entity.js';
import type { AssetPermissionsService } from '../assets/asset-permissions.js';
import { FilesErrors } from './files.errors.js';
import type { FilesRepository } from './files.repository.js';

/** The entity of routes that name a file set by its id alone: readable when its asset is (else 404). */
export const FILE_SET_READ = 'file_set';

/**
 * `file.write`: a file (named in a body, e.g. a job's object) whose asset the caller may write; the asset's
 * ACL decides, through the same permissions the asset checkers use. Unreadable is 404, readable but not
 * writable 404 too here (the job simply cannot name it).
 */
export function registerFileAccess(
  access: AccessService,
  permissions: AssetPermissionsService,
  repo: Pick<FilesRepository, 'filesInDomain' | 'fileSetsInDomain'>,
): void {
  /** Of `rows`, those on whose asset the caller holds `permission`. */
  const onAssetsWith = async <T extends { asset_id: string }>(
    auth: AuthContext,
    rows: T[],
    permission: AssetPermission,
  ): Promise<T[]> => {
    const perms = await permissions.readable(auth, [...new Set(rows.map((r) => r.asset_id))]);
    return rows.filter((r) => perms.get(r.asset_id)?.includes(permission));
  };
  access.register(FILE_SET_READ, {
    label: 'File set',
    notFound: () => FilesErrors.FILE_SET_NOT_FOUND(),
    find: async (auth, ids) =>
      onAssetsWith(auth, await repo.fileSetsInDomain(ids, auth.systemDomainId), 'read'),
  });
  access.register('file.write', {
    label: 'File',
    notFound: () => FilesErrors.FILE_NOT_FOUND(),
    find: async (auth, ids) =>
      onAssetsWith(auth, await repo.filesInDomain(ids, auth.systemDomainId), 'write'),
  });
}
