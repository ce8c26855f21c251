import type { AccessService } from '../../base/common/auth/access.service.js';
import type { AssetPermissionsService } from '../assets/asset-permissions.js';
import { FilesErrors } from './files.errors.js';
import type { FilesRepository } from './files.repository.js';

/**
 * `file.write`: a file (named in a body, e.g. a job's object) whose asset the caller may write; the asset's
 * ACL decides, through the same permissions the asset checkers use. Unreadable is 404, readable but not
 * writable 404 too here (the job simply cannot name it).
 */
export function registerFileAccess(
  access: AccessService,
  permissions: AssetPermissionsService,
  repo: Pick<FilesRepository, 'filesInDomain'>,
): void {
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
