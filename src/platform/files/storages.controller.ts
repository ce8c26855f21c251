import { Body, Controller, Get, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
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

const uuid = new UuidParamPipe('Storage');

@ApiTags('files')
@ApiErrors(400)
@Controller('API/files/v1/storages')
export class StoragesController {
  constructor(private readonly storages: StoragesService) {}

  @Get()
  @Authenticated({ roles: ['can_read_assets'] })
  @ApiOperation({
    summary:
      'Storages the caller’s domain uses (built-in and its own), with facets per method, purpose and status',
  })
  @ApiOkResponse({ type: StorageListDto })
  listStorages(
    @Query() q: StorageListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<StorageListDto> {
    return this.storages.list(caller, q, req.path);
  }

  @Post()
  @Authenticated({ admin: true })
  @ApiOperation({ summary: 'Add a storage to the caller’s domain (administrators; FILE or S3)' })
  @ApiCreatedResponse({ type: StorageDto })
  createStorage(@Body() body: CreateStorageDto, @Caller() caller: AuthContext): Promise<StorageDto> {
    return this.storages.create(caller, body);
  }

  @Get('matching/:purpose')
  @Authenticated({ roles: ['can_read_assets'] })
  @ApiParam({ name: 'purpose', enum: STORAGE_PURPOSES })
  @ApiOperation({ summary: 'The storage of a purpose: the domain’s default, else the built-in one' })
  @ApiOkResponse({ type: StorageDto })
  @ApiErrors({ 404: 'None for that purpose' })
  matchingStorage(@Param('purpose') purpose: string, @Caller() caller: AuthContext): Promise<StorageDto> {
    if (!(STORAGE_PURPOSES as readonly string[]).includes(purpose))
      throw FilesErrors.NO_MATCHING_STORAGE(purpose.slice(0, 50));
    return this.storages.matchingView(caller, purpose);
  }

  @Get(':purpose/default')
  @Authenticated({ roles: ['can_read_assets'] })
  @ApiParam({ name: 'purpose', enum: STORAGE_PURPOSES })
  @ApiOperation({
    summary: 'The default storage of a purpose: the domain’s default, else the built-in one (as matching/)',
  })
  @ApiOkResponse({ type: StorageDto })
  @ApiErrors({ 404: 'None for that purpose' })
  defaultStorage(@Param('purpose') purpose: string, @Caller() caller: AuthContext): Promise<StorageDto> {
    return this.matchingStorage(purpose, caller);
  }

  @Get(':storage_id')
  @Authenticated({ roles: ['can_read_assets'] })
  @ApiOperation({ summary: 'One storage' })
  @ApiOkResponse({ type: StorageDto })
  @ApiErrors(404)
  getStorage(@Param('storage_id', uuid) id: string, @Caller() caller: AuthContext): Promise<StorageDto> {
    return this.storages.get(caller, id);
  }

  @Patch(':storage_id')
  @Authenticated({ admin: true })
  @ApiOperation({
    summary: 'Edit a storage (administrators: their domain’s; super administrators: the built-in ones too)',
  })
  @ApiOkResponse({ type: StorageDto })
  @ApiErrors(403, 404)
  updateStorage(
    @Param('storage_id', uuid) id: string,
    @Body() body: UpdateStorageDto,
    @Caller() caller: AuthContext,
  ): Promise<StorageDto> {
    return this.storages.update(caller, id, body);
  }
}
