import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { ASSET_ACCESS } from './asset-access.js';
import { AssetsService } from './assets.service.js';
import { CollectionContentsService } from './collection-contents.service.js';
import {
  AssetDto,
  AssetListDto,
  AssetListQueryDto,
  CreateAssetDto,
  CreateAssetQueryDto,
  UpdateAssetDto,
} from './dto/asset.dto.js';
import { Route } from '../../base/common/http/route.js';

const param = 'asset_id';
const id = input.uuidParam(param, 'Asset');
const UPDATE = 'Update an asset (any subset of the writable fields); needs the write permission';

const edit = PutAndPatch({
  path: ':asset_id',
  policy: { roles: ['can_write_assets'], access: { entity: ASSET_ACCESS.write, param } },
  ok: AssetDto,
  errors: [404],
  put: `${UPDATE}. The same as PATCH; read-only fields are ignored`,
  patch: UPDATE,
});
const assets = ServiceRoutes<AssetsService>('assets');
const contents = ServiceRoutes<CollectionContentsService>('contents');

@ApiTags('assets')
@ApiErrors(400)
@Controller('API/assets/v1/assets')
export class AssetsController extends assets.handlers(
  {
    listAssets: assets.call(
      'list',
      Route.get({
        summary:
          'Assets of the caller’s domain the caller may read (page style, facets per type and status; query filters the title; sort on title, date_created, date_modified, type, status)',
        policy: { roles: ['can_read_assets'] },
        ok: AssetListDto,
      }),
      input.caller,
      input.query(AssetListQueryDto),
      input.path,
    ),
  },
  // createAsset hands the query's flag to the contents service; the asset's own routes come after it
  contents.handlers(
    {
      createAsset: contents.handle(
        Route.post({
          summary:
            'Create an asset with its first version; the creator gets every permission on it. With assign_to_collection=true and a collection_id, it is added to that collection (one the caller may write, with the collection roles), or nothing is created',
          policy: { roles: ['can_write_assets'] },
          created: AssetDto,
          errors: [{ 404: 'No such collection the caller may read' }],
        }),
        (s, c, b, q) => s.createAsset(c, b, q.assign_to_collection === true),
        input.caller,
        input.body(CreateAssetDto),
        input.query(CreateAssetQueryDto),
      ),
    },
    assets.handlers({
      getAsset: assets.call(
        'get',
        Route.get(':asset_id', {
          summary: 'One asset, with its versions and the caller’s permissions',
          policy: { roles: ['can_read_assets'], access: { entity: ASSET_ACCESS.read, param } },
          ok: AssetDto,
          errors: [{ 404: 'No such asset the caller may read' }],
        }),
        input.caller,
        id,
      ),
      updateAsset: assets.call('update', edit.patch, input.caller, id, input.body(UpdateAssetDto)),
      deleteAsset: assets.call(
        'remove',
        Route.delete(':asset_id', {
          summary:
            'Delete an asset (soft: date_deleted and deleted_by_user are set; it is then 404 to reads and searches)',
          policy: { roles: ['can_delete_assets'], access: { entity: ASSET_ACCESS.delete, param } },
          noContent: 'Deleted',
          errors: [404],
        }),
        input.caller,
        id,
      ),
      replaceAsset: assets.call('update', edit.put, input.caller, id, input.body(UpdateAssetDto)),
    }),
  ),
) {
  constructor(
    protected readonly assets: AssetsService,
    protected readonly contents: CollectionContentsService,
  ) {
    super();
  }
}
