import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { COLLECTION_ROUTE } from './collection-access.js';
import { CollectionsService } from './collections.service.js';
import {
  CollectionDto,
  CollectionListDto,
  CollectionListQueryDto,
  CollectionPathDto,
  CreateCollectionDto,
  UpdateCollectionDto,
} from './dto/collection.dto.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe('Collection');
const param = 'collection_id';
const { read: READ, write: WRITE } = COLLECTION_ROUTE;
const NOT_FOUND = { 404: 'No such collection the caller may read' };
const UPDATE =
  'Update a collection (any subset of the writable fields; parent_id moves it, never under itself or a descendant); needs write';
const edit = PutAndPatch({
  path: ':collection_id',
  policy: WRITE,
  ok: CollectionDto,
  errors: [NOT_FOUND],
  put: `${UPDATE}. The same as PATCH; read-only fields are ignored`,
  patch: UPDATE,
});

/** Collections of the assets service (issue 38): the collection itself and its place in the tree. */
@ApiTags('collections')
@ApiErrors(400)
@Controller('API/assets/v1/collections')
export class CollectionsController {
  constructor(private readonly collections: CollectionsService) {}

  @Route.get({
    summary: 'Collections the caller may read (page style, facets; query filters the title)',
    policy: { roles: ['can_read_collections'] },
    ok: CollectionListDto,
  })
  listCollections(
    @Query() q: CollectionListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<CollectionListDto> {
    return this.collections.list(caller, q, req.path);
  }

  @Route.post({
    summary:
      'Create a collection (under parent_id, one the caller may write); the creator gets every permission',
    policy: { roles: ['can_read_collections', 'can_write_collections'] },
    created: CollectionDto,
    errors: [{ 404: 'No such parent collection the caller may read' }],
  })
  createCollection(@Body() body: CreateCollectionDto, @Caller() caller: AuthContext): Promise<CollectionDto> {
    return this.collections.create(caller, body);
  }

  @Route.get(':collection_id', {
    summary: 'One collection, with the caller’s permissions, its parents and in_collections',
    policy: READ,
    ok: CollectionDto,
    errors: [NOT_FOUND],
  })
  getCollection(@Param(param, uuid) id: string, @Caller() caller: AuthContext): Promise<CollectionDto> {
    return this.collections.get(caller, id);
  }

  @edit.both('replaceCollection')
  updateCollection(
    @Param(param, uuid) id: string,
    @Body() body: UpdateCollectionDto,
    @Caller() caller: AuthContext,
  ): Promise<CollectionDto> {
    return this.collections.update(caller, id, body);
  }

  @Route.delete(':collection_id', {
    summary: 'Delete a collection (soft: to the delete queue; it is then 404 to reads)',
    policy: COLLECTION_ROUTE.delete,
    noContent: 'Deleted',
    errors: [NOT_FOUND],
  })
  deleteCollection(@Param(param, uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.collections.remove(caller, id);
  }

  @Route.post(':collection_id/subcollections', {
    summary: 'Create a collection under this one (needs write on it)',
    policy: WRITE,
    created: CollectionDto,
    errors: [NOT_FOUND],
  })
  createSubcollection(
    @Param(param, uuid) id: string,
    @Body() body: CreateCollectionDto,
    @Caller() caller: AuthContext,
  ): Promise<CollectionDto> {
    return this.collections.create(caller, body, id);
  }

  @Route.get(':collection_id/ancestors', {
    summary: 'Its ancestors the caller may read, the root first',
    policy: READ,
    ok: CollectionPathDto,
    errors: [NOT_FOUND],
  })
  getCollectionAncestors(
    @Param(param, uuid) id: string,
    @Caller() caller: AuthContext,
  ): Promise<CollectionPathDto> {
    return this.collections.ancestors(caller, id);
  }

  @Route.get(':collection_id/full/path', {
    summary: 'Its path: the ancestors the caller may read, the root first, then the collection',
    policy: READ,
    ok: CollectionPathDto,
    errors: [NOT_FOUND],
  })
  getCollectionPath(
    @Param(param, uuid) id: string,
    @Caller() caller: AuthContext,
  ): Promise<CollectionPathDto> {
    return this.collections.ancestors(caller, id, true);
  }
}
