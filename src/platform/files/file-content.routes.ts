import { Param, Post, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { ComposeUrlAnswerDto, ComposeUrlDto, DownloadUrlDto, KeyframesStartedDto } from './dto/file.dto.js';
import type { FilesService } from './files.service.js';
import type { KeyframesService } from './keyframes.service.js';
import { Route } from '../../base/common/http/route.js';

export const param = 'asset_id';
export const READ = { roles: ['can_read_assets' as const], access: { entity: ASSET_ACCESS.read, param } };
export const WRITE = { roles: ['can_write_assets' as const], access: { entity: ASSET_ACCESS.write, param } };
export const assetParam = input.uuidParam(param, 'Asset');
export const fileParam = input.uuidParam('file_id', 'File');
export const files = ServiceRoutes<FilesService>('files');

/** The start of keyframe extraction, written out (200 with the job, or 204): the last of the file routes. */
abstract class KeyframesStartRoute {
  protected abstract readonly keyframes: KeyframesService;

  @Post('files/:file_id/keyframes')
  @Authenticated(WRITE)
  @ApiOperation({
    summary:
      'Start extracting keyframes of a CLOSED video or image file (a KEYFRAMES job run in the background); 204 when there is nothing to extract from',
  })
  @ApiOkResponse({ type: KeyframesStartedDto })
  @ApiNoContentResponse({ description: 'Skipped: a directory, a link or an empty file' })
  async startKeyframes(
    @Param(param, new UuidParamPipe('Asset')) assetId: string,
    @Param('file_id', new UuidParamPipe('File')) id: string,
    @Caller() caller: AuthContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<KeyframesStartedDto | undefined> {
    const started = await this.keyframes.start(caller, assetId, id);
    if (started) {
      res.status(200);
      return started;
    }
    res.status(204);
    return undefined;
  }
}

/**
 * The routes of `FilesController` on a file's content (multipart, download, keyframes), which it inherits:
 * Nest registers a controller's own routes first and inherited ones after, so the route order and the
 * route-policy keys (`<Controller>.<method>`) stay as they were.
 */
export const FileContentRoutes = files.handlers(
  {
    composeUrl: files.call(
      'composeUrl',
      Route.post('files/:file_id/multipart/gcs/compose_url', {
        summary:
          'Compose the uploaded parts: this service composes them as they arrive, so it answers the upload URL and the object key',
        policy: WRITE,
        ok: ComposeUrlAnswerDto,
      }),
      assetParam,
      fileParam,
      input.body(ComposeUrlDto),
    ),
    downloadUrl: files.call(
      'downloadUrl',
      Route.get('files/:file_id/download', {
        summary: 'A signed, short-lived download URL of a CLOSED file (answers Range requests)',
        policy: READ,
        ok: DownloadUrlDto,
      }),
      assetParam,
      fileParam,
    ),
  },
  KeyframesStartRoute,
);
