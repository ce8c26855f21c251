import { ASSET_ACCESS } from '../assets/asset-access.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { CreateFileSetDto, FileSetDto, FileSetListDto, UpdateFileSetDto } from './dto/file.dto.js';
import type { FormatsService } from './formats.service.js';
import { Route } from '../../base/common/http/route.js';

export const param = 'asset_id';
const asset = input.uuidParam(param, 'Asset');
const fileSet = input.uuidParam('file_set_id', 'File set');
export const READ = { roles: ['can_read_assets' as const], access: { entity: ASSET_ACCESS.read, param } };
export const WRITE = { roles: ['can_write_assets' as const], access: { entity: ASSET_ACCESS.write, param } };
export const DELETE = {
  roles: ['can_delete_assets' as const],
  access: { entity: ASSET_ACCESS.delete, param },
};
export const formats = ServiceRoutes<FormatsService>('formats');

/**
 * The file set routes of `FormatsController`, which its table extends: Nest registers a controller's own
 * routes first and inherited ones after, so the route order and the route-policy keys
 * (`<Controller>.<method>`) stay as they were.
 */
export const FileSetRoutes = formats.handlers({
  createFileSet: formats.call(
    'createFileSet',
    Route.post('file_sets', {
      summary: 'Create a file set of the asset (a format’s files in one storage)',
      policy: WRITE,
      created: FileSetDto,
    }),
    input.caller,
    asset,
    input.body(CreateFileSetDto),
  ),
  listFileSets: formats.call(
    'listFileSets',
    Route.get('file_sets', { summary: 'File sets of the asset', policy: READ, ok: FileSetListDto }),
    asset,
    input.query(PageQueryDto),
    input.path,
  ),
  getFileSet: formats.call(
    'getFileSet',
    Route.get('file_sets/:file_set_id', { summary: 'One file set', policy: READ, ok: FileSetDto }),
    asset,
    fileSet,
  ),
  updateFileSet: formats.call(
    'updateFileSet',
    Route.patch('file_sets/:file_set_id', { summary: 'Change a file set', policy: WRITE, ok: FileSetDto }),
    asset,
    fileSet,
    input.body(UpdateFileSetDto),
  ),
  deleteFileSet: formats.call(
    'deleteFileSet',
    Route.delete('file_sets/:file_set_id', {
      summary: 'Delete a file set that has no files left',
      policy: DELETE,
      noContent: 'Deleted',
    }),
    asset,
    fileSet,
  ),
});
