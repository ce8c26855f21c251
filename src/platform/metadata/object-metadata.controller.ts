import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import { COLLECTION_ACCESS } from '../assets/collection-access.js';
import { MetadataValuesDto, ObjectValuesBodyDto } from './dto/values.dto.js';
import { MetadataErrors } from './metadata.errors.js';
import { OBJECT_TYPES, ObjectMetadataService } from './object-metadata.service.js';
import { Route } from '../../base/common/http/route.js';

const asset = new UuidParamPipe('Asset');
const collection = new UuidParamPipe('Collection');
const param = 'object_id';
const GET = 'The object’s values of the domain’s registered fields';
const PUT =
  'Set values of registered fields (mode overwrite or append, per request or per field); unknown, read-only or mistyped fields are a 400 naming them. Needs write on the object; emits the metadata event';

/** An object's metadata without a view (`/API/metadata/v1/{object_type}/{object_id}/`). */
@ApiTags('metadata')
@ApiErrors(400, { 404: 'No such object the caller may read' })
@Controller('API/metadata/v1')
export class ObjectMetadataController {
  constructor(private readonly metadata: ObjectMetadataService) {}

  @Route.get('assets/:object_id', {
    summary: `${GET} (on the asset’s current version)`,
    policy: { roles: ['can_read_assets'], access: { entity: ASSET_ACCESS.read, param } },
    ok: MetadataValuesDto,
  })
  getAssetValues(@Param(param, asset) id: string, @Caller() caller: AuthContext): Promise<MetadataValuesDto> {
    return this.metadata.get(caller, 'assets', id);
  }

  @Route.put('assets/:object_id', {
    summary: `${PUT} (on the asset’s current version; its search document follows)`,
    policy: { roles: ['can_write_assets'], access: { entity: ASSET_ACCESS.write, param } },
    ok: MetadataValuesDto,
  })
  putAssetValues(
    @Param(param, asset) id: string,
    @Body() body: ObjectValuesBodyDto,
    @Caller() caller: AuthContext,
  ): Promise<MetadataValuesDto> {
    return this.metadata.put(caller, 'assets', id, body);
  }

  @Route.get('collections/:object_id', {
    summary: `${GET} (version_id null)`,
    policy: { roles: ['can_read_collections'], access: { entity: COLLECTION_ACCESS.read, param } },
    ok: MetadataValuesDto,
  })
  getCollectionValues(
    @Param(param, collection) id: string,
    @Caller() caller: AuthContext,
  ): Promise<MetadataValuesDto> {
    return this.metadata.get(caller, 'collections', id);
  }

  @Route.put('collections/:object_id', {
    summary: PUT,
    policy: { roles: ['can_write_collections'], access: { entity: COLLECTION_ACCESS.write, param } },
    ok: MetadataValuesDto,
  })
  putCollectionValues(
    @Param(param, collection) id: string,
    @Body() body: ObjectValuesBodyDto,
    @Caller() caller: AuthContext,
  ): Promise<MetadataValuesDto> {
    return this.metadata.put(caller, 'collections', id, body);
  }

  // any other object type: declared last, so every route above (and the views', fields' and categories') wins

  @Route.get(':object_type/:object_id', {
    summary: `An object type without metadata: a 400 (object_type: ${OBJECT_TYPES.join(', ')})`,
    policy: { roles: ['can_read_assets'] },
    ok: MetadataValuesDto,
  })
  getOtherValues(): never {
    throw MetadataErrors.INVALID({ object_type: `must be one of ${OBJECT_TYPES.join(', ')}` });
  }

  @Route.put(':object_type/:object_id', {
    summary: `An object type without metadata: a 400 (object_type: ${OBJECT_TYPES.join(', ')})`,
    policy: { roles: ['can_write_assets'] },
    ok: MetadataValuesDto,
  })
  putOtherValues(): never {
    throw MetadataErrors.INVALID({ object_type: `must be one of ${OBJECT_TYPES.join(', ')}` });
  }
}
