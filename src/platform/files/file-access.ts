import type { AccessService } from '../../base/common/auth/access.service.js';
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
  access.register(FILE_SET_READ, {
    label: 'File set',
    notFound: () => FilesErrors.FILE_SET_NOT_FOUND(),
    find: async (auth, ids) => {
      const sets = await repo.fileSetsInDomain(ids, auth.systemDomainId);
      const perms = await permissions.readable(auth, [...new Set(sets.map((s) => s.asset_id))]);
      return sets.filter((s) => perms.get(s.asset_id)?.includes('read'));
    },
  });
  access.register('file.write', {
    label: 'File',
    notFound: () => FilesErrors.FILE_NOT_FOUND(),
    find: async (auth, ids) => {
      const files = await repo.filesInDomain(ids, auth.systemDomainId);
      const perms = await permissions.readable(auth, [...new Set(files.map((f) => f.asset_id))]);
      return files.filter((f) => perms.get(f.asset_id)?.includes('write'));
    },
  });
}
