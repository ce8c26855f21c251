import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { AssetMetadataService } from './asset-metadata.service.js';
import { AssetMetadataDto, MetadataValuesBodyDto } from './dto/values.dto.js';

const asset = new UuidParamPipe('Asset');
const view = new UuidParamPipe('View');
const param = 'asset_id';

/** An asset's metadata through a view (`/API/metadata/v1/assets/{asset_id}/views/{view_id}/`). */
@ApiTags('metadata')
@ApiErrors(400, { 404: 'No such asset the caller may read, or no such view' })
@Controller('API/metadata/v1/assets')
export class AssetMetadataController {
  constructor(private readonly metadata: AssetMetadataService) {}

  @Get(':asset_id/views/:view_id')
  @Authenticated({ roles: ['can_read_assets'], access: { entity: ASSET_ACCESS.read, param } })
  @ApiOperation({ summary: 'The values of the view’s fields on the asset’s current version' })
  @ApiOkResponse({ type: AssetMetadataDto })
  getAssetMetadata(
    @Param(param, asset) assetId: string,
    @Param('view_id', view) viewId: string,
    @Caller() caller: AuthContext,
  ): Promise<AssetMetadataDto> {
    return this.metadata.get(caller, assetId, viewId);
  }

  @Put(':asset_id/views/:view_id')
  @Authenticated({ roles: ['can_write_assets'], access: { entity: ASSET_ACCESS.write, param } })
  @ApiOperation({
    summary:
      'Set values of the view’s fields on the asset’s current version (unknown or read-only fields, and required fields left empty, are a 400 naming them); needs write on the asset. Emits the metadata event.',
  })
  @ApiOkResponse({ type: AssetMetadataDto })
  putAssetMetadata(
    @Param(param, asset) assetId: string,
    @Param('view_id', view) viewId: string,
    @Body() body: MetadataValuesBodyDto,
    @Caller() caller: AuthContext,
  ): Promise<AssetMetadataDto> {
    return this.metadata.put(caller, assetId, viewId, body.metadata_values);
  }
}
