import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-errors.js';
import type { Request, Response } from 'express';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Authenticated } from '../common/auth/authenticated.decorator.js';
import { Caller } from '../common/auth/caller.decorator.js';
import { PageQueryDto } from '../common/http/pagination.dto.js';
import { UuidParamPipe } from '../common/http/uuid-param.pipe.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import {
  ComposeUrlAnswerDto,
  ComposeUrlDto,
  CreateFileDto,
  DownloadUrlDto,
  FileDto,
  FileListDto,
  KeyframeListDto,
  KeyframesStartedDto,
  UpdateFileDto,
} from './dto/file.dto.js';
import { FilesService } from './files.service.js';
import { KeyframesService } from './keyframes.service.js';

const param = 'asset_id';
const asset = new UuidParamPipe('Asset');
const file = new UuidParamPipe('File');
const READ = { roles: ['can_read_assets' as const], access: { entity: ASSET_ACCESS.read, param } };
const WRITE = { roles: ['can_write_assets' as const], access: { entity: ASSET_ACCESS.write, param } };
const DELETE = { roles: ['can_delete_assets' as const], access: { entity: ASSET_ACCESS.delete, param } };

/** Files of an asset and their keyframes: the asset's ACL governs them (read, write, delete per route). */
@ApiTags('files')
@ApiErrors(400, { 404: 'No such asset the caller may read, or no such file under it' })
@Controller('API/files/v1/assets/:asset_id')
export class FilesController {
  constructor(
    private readonly files: FilesService,
    private readonly keyframes: KeyframesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('files')
  @Authenticated(WRITE)
  @ApiOperation({
    summary: 'Create a file (OPEN) in the asset; the answer carries its signed resumable upload_url',
  })
  @ApiCreatedResponse({ type: FileDto })
  createFile(
    @Param(param, asset) assetId: string,
    @Body() body: CreateFileDto,
    @Caller() caller: AuthContext,
  ): Promise<FileDto> {
    return this.files.create(caller, assetId, body, this.config.files.maxFileBytes);
  }

  @Get('files')
  @Authenticated(READ)
  @ApiOperation({ summary: 'Files of the asset' })
  @ApiOkResponse({ type: FileListDto })
  listFiles(
    @Param(param, asset) assetId: string,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<FileListDto> {
    return this.files.list(assetId, q, req.path);
  }

  @Get('keyframes')
  @Authenticated(READ)
  @ApiOperation({ summary: 'Keyframes of the asset’s files, each with a signed short-lived image URL' })
  @ApiOkResponse({ type: KeyframeListDto })
  listKeyframes(
    @Param(param, asset) assetId: string,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<KeyframeListDto> {
    return this.keyframes.list(assetId, q, req.path);
  }

  @Get('files/:file_id')
  @Authenticated(READ)
  @ApiOperation({ summary: 'One file' })
  @ApiOkResponse({ type: FileDto })
  getFile(@Param(param, asset) assetId: string, @Param('file_id', file) id: string): Promise<FileDto> {
    return this.files.get(assetId, id);
  }

  @Patch('files/:file_id')
  @Authenticated(WRITE)
  @ApiOperation({
    summary:
      'Progress, metadata, and status CLOSED once every byte arrived (checks the size, records a sha256 checksum; a mismatch is a 400 and the file stays OPEN)',
  })
  @ApiOkResponse({ type: FileDto })
  @ApiErrors({ 409: 'A chunk is being written' })
  updateFile(
    @Param(param, asset) assetId: string,
    @Param('file_id', file) id: string,
    @Body() body: UpdateFileDto,
  ): Promise<FileDto> {
    return this.files.update(assetId, id, body);
  }

  @Delete('files/:file_id')
  @HttpCode(204)
  @Authenticated(DELETE)
  @ApiOperation({ summary: 'Delete a file; its bytes are removed from the storage in the background' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors({ 409: 'A chunk is being written' })
  deleteFile(@Param(param, asset) assetId: string, @Param('file_id', file) id: string): Promise<void> {
    return this.files.remove(assetId, id);
  }

  @Post('files/:file_id/multipart/gcs/compose_url')
  @HttpCode(200)
  @Authenticated(WRITE)
  @ApiOperation({
    summary:
      'Compose the uploaded parts: this service composes them as they arrive, so it answers the upload URL and the object key',
  })
  @ApiOkResponse({ type: ComposeUrlAnswerDto })
  composeUrl(
    @Param(param, asset) assetId: string,
    @Param('file_id', file) id: string,
    @Body() body: ComposeUrlDto,
  ): Promise<ComposeUrlAnswerDto> {
    return this.files.composeUrl(assetId, id, body);
  }

  @Get('files/:file_id/download')
  @Authenticated(READ)
  @ApiOperation({ summary: 'A signed, short-lived download URL of a CLOSED file (answers Range requests)' })
  @ApiOkResponse({ type: DownloadUrlDto })
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
