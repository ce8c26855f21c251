import { Body, Controller, Param } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { AssetMetadataService } from './asset-metadata.service.js';
import { AssetMetadataDto, MetadataValuesBodyDto } from './dto/values.dto.js';
import { Route } from '../../base/common/http/route.js';

const asset = new UuidParamPipe('Asset');
const view = new UuidParamPipe('View');
const param = 'asset_id';

/** An asset's metadata through a view (`/API/metadata/v1/assets/{asset_id}/views/{view_id}/`). */
@ApiTags('metadata')
@ApiErrors(400, { 404: 'No such asset the caller may read, or no such view' })
@Controller('API/metadata/v1/assets')
export class AssetMetadataController {
  constructor(private readonly metadata: AssetMetadataService) {}

  @Route.get(':asset_id/views/:view_id', {
    summary: 'The values of the view’s fields on the asset’s current version',
    policy: { roles: ['can_read_assets'], access: { entity: ASSET_ACCESS.read, param } },
    ok: AssetMetadataDto,
  })
  getAssetMetadata(
    @Param(param, asset) assetId: string,
    @Param('view_id', view) viewId: string,
    @Caller() caller: AuthContext,
  ): Promise<AssetMetadataDto> {
    return this.metadata.get(caller, assetId, viewId);
  }

  @Route.put(':asset_id/views/:view_id', {
    summary:
      'Set values of the view’s fields on the asset’s current version (unknown or read-only fields, and required fields left empty, are a 400 naming them); needs write on the asset. Emits the metadata event.',
    policy: { roles: ['can_write_assets'], access: { entity: ASSET_ACCESS.write, param } },
    ok: AssetMetadataDto,
  })
  putAssetMetadata(
    @Param(param, asset) assetId: string,
    @Param('view_id', view) viewId: string,
    @Body() body: MetadataValuesBodyDto,
    @Caller() caller: AuthContext,
  ): Promise<AssetMetadataDto> {
    return this.metadata.put(caller, assetId, viewId, body.metadata_values);
  }
}
