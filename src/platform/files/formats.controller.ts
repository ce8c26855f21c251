import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { CreateFormatDto, FormatDto, FormatListDto, UpdateFormatDto } from './dto/file.dto.js';
import { FormatsService } from './formats.service.js';
import { param, READ, WRITE, DELETE, FileSetRoutes } from './file-set.routes.js';
import { Route } from '../../base/common/http/route.js';

const asset = new UuidParamPipe('Asset');
const format = new UuidParamPipe('Format');
const edit = PutAndPatch({
  path: 'formats/:format_id',
  policy: WRITE,
  ok: FormatDto,
  put: 'Change a format (the same as PATCH: the fields given change, the others stay)',
  patch: 'Change a format',
});

/** Formats and file sets of an asset: the asset's ACL governs them (read, write, delete per route). */
@ApiTags('files')
@ApiErrors(400, { 404: 'No such asset the caller may read, or no such row under it' })
@Controller('API/files/v1/assets/:asset_id')
export class FormatsController extends FileSetRoutes {
  constructor(protected readonly formats: FormatsService) {
    super();
  }

  @Route.post('formats', { summary: 'Create a format of the asset', policy: WRITE, created: FormatDto })
  createFormat(
    @Param(param, asset) assetId: string,
    @Body() body: CreateFormatDto,
    @Caller() caller: AuthContext,
  ): Promise<FormatDto> {
    return this.formats.createFormat(caller, assetId, body);
  }

  @Route.get('formats', { summary: 'Formats of the asset', policy: READ, ok: FormatListDto })
  listFormats(
    @Param(param, asset) assetId: string,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<FormatListDto> {
    return this.formats.listFormats(assetId, q, req.path);
  }

  @Route.get('formats/:format_id', { summary: 'One format', policy: READ, ok: FormatDto })
  getFormat(
    @Param(param, asset) assetId: string,
    @Param('format_id', format) id: string,
  ): Promise<FormatDto> {
    return this.formats.getFormat(assetId, id);
  }

  @edit.both('replaceFormat')
  updateFormat(
    @Param(param, asset) assetId: string,
    @Param('format_id', format) id: string,
    @Body() body: UpdateFormatDto,
  ): Promise<FormatDto> {
    return this.formats.updateFormat(assetId, id, body);
  }

  @Route.delete('formats/:format_id', {
    summary: 'Delete a format that has no files left',
    policy: DELETE,
    noContent: 'Deleted',
  })
  deleteFormat(@Param(param, asset) assetId: string, @Param('format_id', format) id: string): Promise<void> {
    return this.formats.deleteFormat(assetId, id);
  }
}
