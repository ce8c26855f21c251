import { Body, Param, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { CreateFileSetDto, FileSetDto, FileSetListDto, UpdateFileSetDto } from './dto/file.dto.js';
import type { FormatsService } from './formats.service.js';
import { Route } from '../../base/common/http/route.js';

export const param = 'asset_id';
const asset = new UuidParamPipe('Asset');
const fileSet = new UuidParamPipe('File set');
export const READ = { roles: ['can_read_assets' as const], access: { entity: ASSET_ACCESS.read, param } };
export const WRITE = { roles: ['can_write_assets' as const], access: { entity: ASSET_ACCESS.write, param } };
export const DELETE = {
  roles: ['can_delete_assets' as const],
  access: { entity: ASSET_ACCESS.delete, param },
};

/**
 * The file set routes of `FormatsController`, which extends this class: Nest registers a controller's own
 * routes first and inherited ones after, so the route order and the route-policy keys
 * (`<Controller>.<method>`) stay as they were.
 */
export abstract class FileSetRoutes {
  protected abstract readonly formats: FormatsService;

  @Route.post('file_sets', {
    summary: 'Create a file set of the asset (a format’s files in one storage)',
    policy: WRITE,
    created: FileSetDto,
  })
  createFileSet(
    @Param(param, asset) assetId: string,
    @Body() body: CreateFileSetDto,
    @Caller() caller: AuthContext,
  ): Promise<FileSetDto> {
    return this.formats.createFileSet(caller, assetId, body);
  }

  @Route.get('file_sets', { summary: 'File sets of the asset', policy: READ, ok: FileSetListDto })
  listFileSets(
    @Param(param, asset) assetId: string,
    @Query() q: PageQueryDto,
    @Req() req: Request,
  ): Promise<FileSetListDto> {
    return this.formats.listFileSets(assetId, q, req.path);
  }

  @Route.get('file_sets/:file_set_id', { summary: 'One file set', policy: READ, ok: FileSetDto })
  getFileSet(
    @Param(param, asset) assetId: string,
    @Param('file_set_id', fileSet) id: string,
  ): Promise<FileSetDto> {
    return this.formats.getFileSet(assetId, id);
  }

  @Route.patch('file_sets/:file_set_id', { summary: 'Change a file set', policy: WRITE, ok: FileSetDto })
  updateFileSet(
    @Param(param, asset) assetId: string,
    @Param('file_set_id', fileSet) id: string,
    @Body() body: UpdateFileSetDto,
  ): Promise<FileSetDto> {
    return this.formats.updateFileSet(assetId, id, body);
  }

  @Route.delete('file_sets/:file_set_id', {
    summary: 'Delete a file set that has no files left',
    policy: DELETE,
    noContent: 'Deleted',
  })
  deleteFileSet(
    @Param(param, asset) assetId: string,
    @Param('file_set_id', fileSet) id: string,
  ): Promise<void> {
    return this.formats.deleteFileSet(assetId, id);
  }
}
