import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import {
  DownloadUrlDto,
  FileListDto,
  FilePageQueryDto,
  KeyframeDto,
  SignedUrlQueryDto,
} from './dto/file.dto.js';
import { KeyframesService } from './keyframes.service.js';
import { FILE_SET_READ } from './file-access.js';
import { READ } from './file-content.routes.js';
import { FilesService } from './files.service.js';
import { Route } from '../../base/common/http/route.js';

const assetParam = input.uuidParam('asset_id', 'Asset');
const fileSetParam = input.uuidParam('file_set_id', 'File set');
const files = ServiceRoutes<FilesService>('files');
const keyframes = ServiceRoutes<KeyframesService>('keyframes');

/**
 * The file lists and links published clients call beside the asset's own routes: a file set's files (by the
 * set's id alone, or under its asset), a version's files, one keyframe, and `download_url/`. The asset's ACL governs them
 * all (read), as it does the asset's files: an asset the caller may not read is a 404.
 */
@ApiTags('files')
@ApiErrors(400, { 404: 'No such asset the caller may read, or no such row under it' })
@Controller('API/files/v1')
export class FileListsController extends files.handlers(
  {
    listFileSetFiles: files.call(
      'listOfFileSet',
      Route.get('file_sets/:file_set_id/files', {
        summary: 'Files of a file set (its asset’s ACL decides: read)',
        policy: { roles: ['can_read_assets'], access: { entity: FILE_SET_READ, param: 'file_set_id' } },
        ok: FileListDto,
      }),
      input.caller,
      fileSetParam,
      input.query(FilePageQueryDto),
      input.path,
    ),
    listAssetFileSetFiles: files.call(
      'listOfAssetFileSet',
      Route.get('assets/:asset_id/file_sets/:file_set_id/files', {
        summary: 'Files of one of the asset’s file sets',
        policy: READ,
        ok: FileListDto,
      }),
      assetParam,
      fileSetParam,
      input.query(FilePageQueryDto),
      input.path,
    ),
    listVersionFiles: files.handle(
      Route.get('assets/:asset_id/versions/:version_id/files', {
        summary: 'Files of one version of the asset (an empty page for a version it does not have)',
        policy: READ,
        ok: FileListDto,
      }),
      (s, assetId, versionId, q, p) => s.list({ asset_id: assetId, version_id: versionId }, q, p),
      assetParam,
      input.uuidParam('version_id', 'Version'),
      input.query(FilePageQueryDto),
      input.path,
    ),
  },
  // the keyframe is the keyframes service's (its query is only validated); download_url comes after it
  keyframes.handlers(
    {
      getKeyframe: keyframes.handle(
        Route.get('assets/:asset_id/keyframes/:keyframe_id', {
          summary: 'One keyframe of the asset, with its signed short-lived image URL',
          policy: READ,
          ok: KeyframeDto,
        }),
        (s, assetId, id) => s.get(assetId, id),
        assetParam,
        input.uuidParam('keyframe_id', 'Keyframe'),
        input.query(SignedUrlQueryDto),
      ),
    },
    files.handlers({
      getFileDownloadUrl: files.call(
        'downloadUrl',
        Route.get('assets/:asset_id/files/:file_id/download_url', {
          summary: 'A signed, short-lived download URL of a CLOSED file (the same link as …/download/)',
          policy: READ,
          ok: DownloadUrlDto,
        }),
        assetParam,
        input.uuidParam('file_id', 'File'),
      ),
    }),
  ),
) {
  constructor(
    protected readonly files: FilesService,
    protected readonly keyframes: KeyframesService,
  ) {
    super();
  }
}
