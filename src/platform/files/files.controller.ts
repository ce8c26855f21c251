import type { ConfigOf } from '../../base/config/namespace.js';
import { FILES_CONFIG } from './files-config.js';
import { Body, Controller, Inject, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import {
  CreateFileDto,
  FileDto,
  FileListDto,
  FilePageQueryDto,
  KeyframeListDto,
  SignedUrlQueryDto,
  UpdateFileDto,
} from './dto/file.dto.js';
import { FilesService } from './files.service.js';
import { KeyframesService } from './keyframes.service.js';
import {
  assetParam,
  fileParam,
  files,
  param,
  READ,
  WRITE,
  FileContentRoutes,
} from './file-content.routes.js';
import { Route } from '../../base/common/http/route.js';

const asset = new UuidParamPipe('Asset');
const DELETE = { roles: ['can_delete_assets' as const], access: { entity: ASSET_ACCESS.delete, param } };
const keyframes = ServiceRoutes<KeyframesService>('keyframes');

/** Files of an asset and their keyframes: the asset's ACL governs them (read, write, delete per route). */
@ApiTags('files')
@ApiErrors(400, { 404: 'No such asset the caller may read, or no such file under it' })
@Controller('API/files/v1/assets/:asset_id')
export class FilesController extends files.handlers(
  {
    listFiles: files.handle(
      Route.get('files', { summary: 'Files of the asset', policy: READ, ok: FileListDto }),
      (s, assetId, q, p) => s.list({ asset_id: assetId }, q, p),
      assetParam,
      input.query(FilePageQueryDto),
      input.path,
    ),
  },
  keyframes.handlers(
    {
      listKeyframes: keyframes.call(
        'list',
        Route.get('keyframes', {
          summary: 'Keyframes of the asset’s files, each with a signed short-lived image URL',
          policy: READ,
          ok: KeyframeListDto,
        }),
        assetParam,
        input.query(FilePageQueryDto),
        input.path,
      ),
    },
    files.handlers(
      {
        getFile: files.handle(
          Route.get('files/:file_id', { summary: 'One file', policy: READ, ok: FileDto }),
          (s, assetId, id, q) => s.get(assetId, id, q.generate_signed_url),
          assetParam,
          fileParam,
          input.query(SignedUrlQueryDto),
        ),
        updateFile: files.call(
          'update',
          Route.patch('files/:file_id', {
            summary:
              'Progress, metadata, and status CLOSED once every byte arrived (checks the size, records a sha256 checksum; a mismatch is a 400 and the file stays OPEN)',
            policy: WRITE,
            ok: FileDto,
            errors: [{ 409: 'A chunk is being written' }],
          }),
          assetParam,
          fileParam,
          input.body(UpdateFileDto),
        ),
        deleteFile: files.call(
          'remove',
          Route.delete('files/:file_id', {
            summary: 'Delete a file; its bytes are removed from the storage in the background',
            policy: DELETE,
            noContent: 'Deleted',
            errors: [{ 409: 'A chunk is being written' }],
          }),
          assetParam,
          fileParam,
        ),
      },
      FileContentRoutes,
    ),
  ),
) {
  constructor(
    protected readonly files: FilesService,
    protected readonly keyframes: KeyframesService,
    @Inject(FILES_CONFIG.token) private readonly filesConfig: ConfigOf<typeof FILES_CONFIG>,
  ) {
    super();
  }

  /** Written (the configured size limit), so Nest registers it first, before the table. */
  @Route.post('files', {
    summary: 'Create a file (OPEN) in the asset; the answer carries its signed resumable upload_url',
    policy: WRITE,
    created: FileDto,
  })
  createFile(
    @Param(param, asset) assetId: string,
    @Body() dto: CreateFileDto,
    @Caller() auth: AuthContext,
  ): Promise<FileDto> {
    return this.files.create(auth, assetId, dto, this.filesConfig.maxFileBytes);
  }
}
