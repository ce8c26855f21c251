import { Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
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

const asset = new UuidParamPipe('Asset');
const file = new UuidParamPipe('File');
const fileSet = new UuidParamPipe('File set');
const version = new UuidParamPipe('Version');
const keyframe = new UuidParamPipe('Keyframe');

/**
 * The file lists and links published clients call beside the asset's own routes: a file set's files (by the
 * set's id alone, or under its asset), a version's files, one keyframe, and `download_url/`. The asset's ACL governs them
 * all (read), as it does the asset's files: an asset the caller may not read is a 404.
 */
@ApiTags('files')
@ApiErrors(400, { 404: 'No such asset the caller may read, or no such row under it' })
@Controller('API/files/v1')
export class FileListsController {
  constructor(
    private readonly files: FilesService,
    private readonly keyframes: KeyframesService,
  ) {}

  @Route.get('file_sets/:file_set_id/files', {
    summary: 'Files of a file set (its asset’s ACL decides: read)',
    policy: { roles: ['can_read_assets'], access: { entity: FILE_SET_READ, param: 'file_set_id' } },
    ok: FileListDto,
  })
  listFileSetFiles(
    @Param('file_set_id', fileSet) id: string,
    @Query() q: FilePageQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<FileListDto> {
    return this.files.listOfFileSet(caller, id, q, req.path);
  }

  @Route.get('assets/:asset_id/file_sets/:file_set_id/files', {
    summary: 'Files of one of the asset’s file sets',
    policy: READ,
    ok: FileListDto,
  })
  listAssetFileSetFiles(
    @Param('asset_id', asset) assetId: string,
    @Param('file_set_id', fileSet) id: string,
    @Query() q: FilePageQueryDto,
    @Req() req: Request,
  ): Promise<FileListDto> {
    return this.files.listOfAssetFileSet(assetId, id, q, req.path);
  }

  @Route.get('assets/:asset_id/versions/:version_id/files', {
    summary: 'Files of one version of the asset (an empty page for a version it does not have)',
    policy: READ,
    ok: FileListDto,
  })
  listVersionFiles(
    @Param('asset_id', asset) assetId: string,
    @Param('version_id', version) versionId: string,
    @Query() q: FilePageQueryDto,
    @Req() req: Request,
  ): Promise<FileListDto> {
    return this.files.list({ asset_id: assetId, version_id: versionId }, q, req.path);
  }

  @Route.get('assets/:asset_id/keyframes/:keyframe_id', {
    summary: 'One keyframe of the asset, with its signed short-lived image URL',
    policy: READ,
    ok: KeyframeDto,
  })
  getKeyframe(
    @Param('asset_id', asset) assetId: string,
    @Param('keyframe_id', keyframe) id: string,
    @Query() _q: SignedUrlQueryDto,
  ): Promise<KeyframeDto> {
    return this.keyframes.get(assetId, id);
  }

  @Route.get('assets/:asset_id/files/:file_id/download_url', {
    summary: 'A signed, short-lived download URL of a CLOSED file (the same link as …/download/)',
    policy: READ,
    ok: DownloadUrlDto,
  })
  getFileDownloadUrl(
    @Param('asset_id', asset) assetId: string,
    @Param('file_id', file) id: string,
  ): Promise<DownloadUrlDto> {
    return this.files.downloadUrl(assetId, id);
  }
}
