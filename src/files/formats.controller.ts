import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-errors.js';
import type { Request } from 'express';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Authenticated } from '../common/auth/authenticated.decorator.js';
import { Caller } from '../common/auth/caller.decorator.js';
import { PageQueryDto } from '../common/http/pagination.dto.js';
import { UuidParamPipe } from '../common/http/uuid-param.pipe.js';
import {
  CreateFileSetDto,
  CreateFormatDto,
  FileSetDto,
  FileSetListDto,
  FormatDto,
  FormatListDto,
  UpdateFileSetDto,
  UpdateFormatDto,
} from './dto/file.dto.js';
import { FormatsService } from './formats.service.js';

const param = 'asset_id';
const asset = new UuidParamPipe('Asset');
const format = new UuidParamPipe('Format');
const fileSet = new UuidParamPipe('File set');
const READ = { roles: ['can_read_assets' as const], access: { entity: ASSET_ACCESS.read, param } };
const WRITE = { roles: ['can_write_assets' as const], access: { entity: ASSET_ACCESS.write, param } };
const DELETE = { roles: ['can_delete_assets' as const], access: { entity: ASSET_ACCESS.delete, param } };

/** Formats and file sets of an asset: the asset's ACL governs them (read, write, delete per route). */
@ApiTags('files')
@ApiErrors(400, { 404: 'No such asset the caller may read, or no such row under it' })
@Controller('API/files/v1/assets/:asset_id')
export class FormatsController {
  constructor(private readonly formats: FormatsService) {}

  @Post('formats')
  @Authenticated(WRITE)
  @ApiOperation({ summary: 'Create a format of the asset' })
  @ApiCreatedResponse({ type: FormatDto })
  createFormat(
    @Param(param, asset) assetId: string,
    @Body() body: CreateFormatDto,
    @Caller() caller: AuthContext,
  ): Promise<FormatDto> {
    return this.formats.createFormat(caller, assetId, body);
  }

  @Get('formats')
  @Authenticated(READ)
  @ApiOperation({ summary: 'Formats of the asset' })
  @ApiOkResponse({ type: FormatListDto })
  listFormats(
    @Param(param, asset) assetId: string,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<FormatListDto> {
    return this.formats.listFormats(assetId, q, req.path);
  }

  @Get('formats/:format_id')
  @Authenticated(READ)
  @ApiOperation({ summary: 'One format' })
  @ApiOkResponse({ type: FormatDto })
  getFormat(
    @Param(param, asset) assetId: string,
    @Param('format_id', format) id: string,
  ): Promise<FormatDto> {
    return this.formats.getFormat(assetId, id);
  }

  @Patch('formats/:format_id')
  @Authenticated(WRITE)
  @ApiOperation({ summary: 'Change a format' })
  @ApiOkResponse({ type: FormatDto })
  updateFormat(
    @Param(param, asset) assetId: string,
    @Param('format_id', format) id: string,
    @Body() body: UpdateFormatDto,
  ): Promise<FormatDto> {
    return this.formats.updateFormat(assetId, id, body);
  }

  @Delete('formats/:format_id')
  @HttpCode(204)
  @Authenticated(DELETE)
  @ApiOperation({ summary: 'Delete a format that has no files left' })
  @ApiNoContentResponse({ description: 'Deleted' })
  deleteFormat(@Param(param, asset) assetId: string, @Param('format_id', format) id: string): Promise<void> {
    return this.formats.deleteFormat(assetId, id);
  }

  @Post('file_sets')
  @Authenticated(WRITE)
  @ApiOperation({ summary: 'Create a file set of the asset (a format’s files in one storage)' })
  @ApiCreatedResponse({ type: FileSetDto })
  createFileSet(
    @Param(param, asset) assetId: string,
    @Body() body: CreateFileSetDto,
    @Caller() caller: AuthContext,
  ): Promise<FileSetDto> {
    return this.formats.createFileSet(caller, assetId, body);
  }

  @Get('file_sets')
  @Authenticated(READ)
  @ApiOperation({ summary: 'File sets of the asset' })
  @ApiOkResponse({ type: FileSetListDto })
  listFileSets(
    @Param(param, asset) assetId: string,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<FileSetListDto> {
    return this.formats.listFileSets(assetId, q, req.path);
  }

  @Get('file_sets/:file_set_id')
  @Authenticated(READ)
  @ApiOperation({ summary: 'One file set' })
  @ApiOkResponse({ type: FileSetDto })
  getFileSet(
    @Param(param, asset) assetId: string,
    @Param('file_set_id', fileSet) id: string,
  ): Promise<FileSetDto> {
    return this.formats.getFileSet(assetId, id);
  }

  @Patch('file_sets/:file_set_id')
  @Authenticated(WRITE)
  @ApiOperation({ summary: 'Change a file set' })
  @ApiOkResponse({ type: FileSetDto })
  updateFileSet(
    @Param(param, asset) assetId: string,
    @Param('file_set_id', fileSet) id: string,
    @Body() body: UpdateFileSetDto,
  ): Promise<FileSetDto> {
    return this.formats.updateFileSet(assetId, id, body);
  }

  @Delete('file_sets/:file_set_id')
  @HttpCode(204)
  @Authenticated(DELETE)
  @ApiOperation({ summary: 'Delete a file set that has no files left' })
  @ApiNoContentResponse({ description: 'Deleted' })
  deleteFileSet(
    @Param(param, asset) assetId: string,
    @Param('file_set_id', fileSet) id: string,
  ): Promise<void> {
    return this.formats.deleteFileSet(assetId, id);
  }
}
