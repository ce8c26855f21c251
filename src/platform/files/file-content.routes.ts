import { Body, Param, Post, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Response } from 'express';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { ComposeUrlAnswerDto, ComposeUrlDto, DownloadUrlDto, KeyframesStartedDto } from './dto/file.dto.js';
import type { FilesService } from './files.service.js';
import type { KeyframesService } from './keyframes.service.js';
import { Route } from '../../base/common/http/route.js';

export const param = 'asset_id';
const asset = new UuidParamPipe('Asset');
const file = new UuidParamPipe('File');
export const READ = { roles: ['can_read_assets' as const], access: { entity: ASSET_ACCESS.read, param } };
export const WRITE = { roles: ['can_write_assets' as const], access: { entity: ASSET_ACCESS.write, param } };

/**
 * The routes of `FilesController` on a file's content (multipart, download, keyframes), which extends this
 * class: Nest registers a controller's own routes first and inherited ones after, so the route order and the
 * route-policy keys (`<Controller>.<method>`) stay as they were.
 */
export abstract class FileContentRoutes {
  protected abstract readonly files: FilesService;
  protected abstract readonly keyframes: KeyframesService;

  @Route.post('files/:file_id/multipart/gcs/compose_url', {
    summary:
      'Compose the uploaded parts: this service composes them as they arrive, so it answers the upload URL and the object key',
    policy: WRITE,
    ok: ComposeUrlAnswerDto,
  })
  composeUrl(
    @Param(param, asset) assetId: string,
    @Param('file_id', file) id: string,
    @Body() body: ComposeUrlDto,
  ): Promise<ComposeUrlAnswerDto> {
    return this.files.composeUrl(assetId, id, body);
  }

  @Route.get('files/:file_id/download', {
    summary: 'A signed, short-lived download URL of a CLOSED file (answers Range requests)',
    policy: READ,
    ok: DownloadUrlDto,
  })
  downloadUrl(
    @Param(param, asset) assetId: string,
    @Param('file_id', file) id: string,
  ): Promise<DownloadUrlDto> {
    return this.files.downloadUrl(assetId, id);
  }

  @Post('files/:file_id/keyframes')
  @Authenticated(WRITE)
  @ApiOperation({
    summary:
      'Start extracting keyframes of a CLOSED video or image file (a KEYFRAMES job run in the background); 204 when there is nothing to extract from',
  })
  @ApiOkResponse({ type: KeyframesStartedDto })
  @ApiNoContentResponse({ description: 'Skipped: a directory, a link or an empty file' })
  async startKeyframes(
    @Param(param, asset) assetId: string,
    @Param('file_id', file) id: string,
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
