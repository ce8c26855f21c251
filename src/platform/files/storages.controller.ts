import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import {
  CreateStorageDto,
  StorageDto,
  StorageListDto,
  StorageListQueryDto,
  UpdateStorageDto,
} from './dto/storage.dto.js';
import { FilesErrors } from './files.errors.js';
import { STORAGE_PURPOSES } from '../../base/model/storage.entity.js';
import { StoragesService } from './storages.service.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe('Storage');

@ApiTags('files')
@ApiErrors(400)
@Controller('API/files/v1/storages')
export class StoragesController {
  constructor(private readonly storages: StoragesService) {}

  @Route.get({
    summary:
      'Storages the caller’s domain uses (built-in and its own), with facets per method, purpose and status',
    policy: { roles: ['can_read_assets'] },
    ok: StorageListDto,
  })
  listStorages(
    @Query() q: StorageListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<StorageListDto> {
    return this.storages.list(caller, q, req.path);
  }

  @Route.post({
    summary: 'Add a storage to the caller’s domain (administrators; FILE or S3)',
    policy: { admin: true },
    created: StorageDto,
  })
  createStorage(@Body() body: CreateStorageDto, @Caller() caller: AuthContext): Promise<StorageDto> {
    return this.storages.create(caller, body);
  }

  @Route.get('matching/:purpose', {
    summary: 'The storage of a purpose: the domain’s default, else the built-in one',
    policy: { roles: ['can_read_assets'] },
    ok: StorageDto,
    errors: [{ 404: 'None for that purpose' }],
  })
  @ApiParam({ name: 'purpose', enum: STORAGE_PURPOSES })
  matchingStorage(@Param('purpose') purpose: string, @Caller() caller: AuthContext): Promise<StorageDto> {
    if (!(STORAGE_PURPOSES as readonly string[]).includes(purpose))
      throw FilesErrors.NO_MATCHING_STORAGE(purpose.slice(0, 50));
    return this.storages.matchingView(caller, purpose);
  }

  @Route.get(':purpose/default', {
    summary: 'The default storage of a purpose: the domain’s default, else the built-in one (as matching/)',
    policy: { roles: ['can_read_assets'] },
    ok: StorageDto,
    errors: [{ 404: 'None for that purpose' }],
  })
  @ApiParam({ name: 'purpose', enum: STORAGE_PURPOSES })
  defaultStorage(@Param('purpose') purpose: string, @Caller() caller: AuthContext): Promise<StorageDto> {
    return this.matchingStorage(purpose, caller);
  }

  @Route.get(':storage_id', {
    summary: 'One storage',
    policy: { roles: ['can_read_assets'] },
    ok: StorageDto,
    errors: [404],
  })
  getStorage(@Param('storage_id', uuid) id: string, @Caller() caller: AuthContext): Promise<StorageDto> {
    return this.storages.get(caller, id);
  }

  @Route.patch(':storage_id', {
    summary: 'Edit a storage (administrators: their domain’s; super administrators: the built-in ones too)',
    policy: { admin: true },
    ok: StorageDto,
    errors: [403, 404],
  })
  updateStorage(
    @Param('storage_id', uuid) id: string,
    @Body() body: UpdateStorageDto,
    @Caller() caller: AuthContext,
  ): Promise<StorageDto> {
    return this.storages.update(caller, id, body);
  }
}
