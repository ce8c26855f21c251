import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
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

const uuid = new UuidParamPipe('Asset');
const param = 'asset_id';
const UPDATE = 'Update an asset (any subset of the writable fields); needs the write permission';

const edit = PutAndPatch({
  path: ':asset_id',
  policy: { roles: ['can_write_assets'], access: { entity: ASSET_ACCESS.write, param } },
  ok: AssetDto,
  errors: [404],
  put: `${UPDATE}. The same as PATCH; read-only fields are ignored`,
  patch: UPDATE,
});

@ApiTags('assets')
@ApiErrors(400)
@Controller('API/assets/v1/assets')
export class AssetsController {
  constructor(
    private readonly assets: AssetsService,
    private readonly contents: CollectionContentsService,
  ) {}

  @Route.get({
    summary:
      'Assets of the caller’s domain the caller may read (page style, facets per type and status; query filters the title; sort on title, date_created, date_modified, type, status)',
    policy: { roles: ['can_read_assets'] },
    ok: AssetListDto,
  })
  listAssets(
    @Query() q: AssetListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<AssetListDto> {
    return this.assets.list(caller, q, req.path);
  }

  @Route.post({
    summary:
      'Create an asset with its first version; the creator gets every permission on it. With assign_to_collection=true and a collection_id, it is added to that collection (one the caller may write, with the collection roles), or nothing is created',
    policy: { roles: ['can_write_assets'] },
    created: AssetDto,
    errors: [{ 404: 'No such collection the caller may read' }],
  })
  createAsset(
    @Body() body: CreateAssetDto,
    @Query() q: CreateAssetQueryDto,
    @Caller() caller: AuthContext,
  ): Promise<AssetDto> {
    return this.contents.createAsset(caller, body, q.assign_to_collection === true);
  }

  @Route.get(':asset_id', {
    summary: 'One asset, with its versions and the caller’s permissions',
    policy: { roles: ['can_read_assets'], access: { entity: ASSET_ACCESS.read, param } },
    ok: AssetDto,
    errors: [{ 404: 'No such asset the caller may read' }],
  })
  getAsset(@Param(param, uuid) id: string, @Caller() caller: AuthContext): Promise<AssetDto> {
    return this.assets.get(caller, id);
  }

  @edit.both('replaceAsset')
  updateAsset(
    @Param(param, uuid) id: string,
    @Body() body: UpdateAssetDto,
    @Caller() caller: AuthContext,
  ): Promise<AssetDto> {
    return this.assets.update(caller, id, body);
  }

  @Route.delete(':asset_id', {
    summary:
      'Delete an asset (soft: date_deleted and deleted_by_user are set; it is then 404 to reads and searches)',
    policy: { roles: ['can_delete_assets'], access: { entity: ASSET_ACCESS.delete, param } },
    noContent: 'Deleted',
    errors: [404],
  })
  deleteAsset(@Param(param, uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.assets.remove(caller, id);
  }
}
