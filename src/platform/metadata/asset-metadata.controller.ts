import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { ASSET_ACCESS } from '../assets/asset-access.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { AssetMetadataService } from './asset-metadata.service.js';
import { AssetMetadataDto, MetadataValuesBodyDto } from './dto/values.dto.js';
import { Route } from '../../base/common/http/route.js';

const param = 'asset_id';
const metadata = ServiceRoutes<AssetMetadataService>('metadata');

/** An asset's metadata through a view (`/API/metadata/v1/assets/{asset_id}/views/{view_id}/`). */
@ApiTags('metadata')
@ApiErrors(400, { 404: 'No such asset the caller may read, or no such view' })
@Controller('API/metadata/v1/assets')
export class AssetMetadataController extends metadata.handlers({
  getAssetMetadata: metadata.call(
    'get',
    Route.get(':asset_id/views/:view_id', {
      summary: 'The values of the view’s fields on the asset’s current version',
      policy: { roles: ['can_read_assets'], access: { entity: ASSET_ACCESS.read, param } },
      ok: AssetMetadataDto,
    }),
    input.caller,
    input.uuidParam(param, 'Asset'),
    input.uuidParam('view_id', 'View'),
  ),
  putAssetMetadata: metadata.handle(
    Route.put(':asset_id/views/:view_id', {
      summary:
        'Set values of the view’s fields on the asset’s current version (unknown or read-only fields, and required fields left empty, are a 400 naming them); needs write on the asset. Emits the metadata event.',
      policy: { roles: ['can_write_assets'], access: { entity: ASSET_ACCESS.write, param } },
      ok: AssetMetadataDto,
    }),
    (s, c, assetId, viewId, b) => s.put(c, assetId, viewId, b.metadata_values),
    input.caller,
    input.uuidParam(param, 'Asset'),
    input.uuidParam('view_id', 'View'),
    input.body(MetadataValuesBodyDto),
  ),
}) {
  constructor(protected readonly metadata: AssetMetadataService) {
    super();
  }
}
