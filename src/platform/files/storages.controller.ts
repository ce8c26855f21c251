import { Controller, Param } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
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

const id = input.uuidParam('storage_id', 'Storage');
const storages = ServiceRoutes<StoragesService>('storages');

/** The purpose routes stay written (purpose checked first); inherited: after createStorage, before get. */
abstract class PurposeRoutes extends storages.handlers({
  getStorage: storages.call(
    'get',
    Route.get(':storage_id', {
      summary: 'One storage',
      policy: { roles: ['can_read_assets'] },
      ok: StorageDto,
      errors: [404],
    }),
    input.caller,
    id,
  ),
  updateStorage: storages.call(
    'update',
    Route.patch(':storage_id', {
      summary: 'Edit a storage (administrators: their domain’s; super administrators: the built-in ones too)',
      policy: { admin: true },
      ok: StorageDto,
      errors: [403, 404],
    }),
    input.caller,
    id,
    input.body(UpdateStorageDto),
  ),
}) {
  protected abstract readonly storages: StoragesService;

  @Route.get('matching/:purpose', {
    summary: 'The storage of a purpose: the domain’s default, else the built-in one',
    policy: { roles: ['can_read_assets'] },
    ok: StorageDto,
    errors: [{ 404: 'None for that purpose' }],
  })
  @ApiParam({ name: 'purpose', enum: STORAGE_PURPOSES })
  matchingStorage(@Param('purpose') purpose: string, @Caller() auth: AuthContext): Promise<StorageDto> {
    if (!(STORAGE_PURPOSES as readonly string[]).includes(purpose))
      throw FilesErrors.NO_MATCHING_STORAGE(purpose.slice(0, 50));
    return this.storages.matchingView(auth, purpose);
  }

  @Route.get(':purpose/default', {
    summary: 'The default storage of a purpose: the domain’s default, else the built-in one (as matching/)',
    policy: { roles: ['can_read_assets'] },
    ok: StorageDto,
    errors: [{ 404: 'None for that purpose' }],
  })
  @ApiParam({ name: 'purpose', enum: STORAGE_PURPOSES })
  defaultStorage(@Param('purpose') purpose: string, @Caller() auth: AuthContext): Promise<StorageDto> {
    return this.matchingStorage(purpose, auth);
  }
}

@ApiTags('files')
@ApiErrors(400)
@Controller('API/files/v1/storages')
export class StoragesController extends storages.handlers(
  {
    listStorages: storages.call(
      'list',
      Route.get({
        summary:
          'Storages the caller’s domain uses (built-in and its own), with facets per method, purpose and status',
        policy: { roles: ['can_read_assets'] },
        ok: StorageListDto,
      }),
      input.caller,
      input.query(StorageListQueryDto),
      input.path,
    ),
    createStorage: storages.call(
      'create',
      Route.post({
        summary: 'Add a storage to the caller’s domain (administrators; FILE or S3)',
        policy: { admin: true },
        created: StorageDto,
      }),
      input.caller,
      input.body(CreateStorageDto),
    ),
  },
  PurposeRoutes,
) {
  constructor(protected readonly storages: StoragesService) {
    super();
  }
}
