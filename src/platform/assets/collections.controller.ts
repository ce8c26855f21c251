import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
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

const param = 'collection_id';
const id = input.uuidParam(param, 'Collection');
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
const collections = ServiceRoutes<CollectionsService>('collections');

/** Collections of the assets service (issue 38): the collection itself and its place in the tree. */
@ApiTags('collections')
@ApiErrors(400)
@Controller('API/assets/v1/collections')
export class CollectionsController extends collections.handlers({
  listCollections: collections.call(
    'list',
    Route.get({
      summary: 'Collections the caller may read (page style, facets; query filters the title)',
      policy: { roles: ['can_read_collections'] },
      ok: CollectionListDto,
    }),
    input.caller,
    input.query(CollectionListQueryDto),
    input.path,
  ),
  createCollection: collections.call(
    'create',
    Route.post({
      summary:
        'Create a collection (under parent_id, one the caller may write); the creator gets every permission',
      policy: { roles: ['can_read_collections', 'can_write_collections'] },
      created: CollectionDto,
      errors: [{ 404: 'No such parent collection the caller may read' }],
    }),
    input.caller,
    input.body(CreateCollectionDto),
  ),
  getCollection: collections.call(
    'get',
    Route.get(':collection_id', {
      summary: 'One collection, with the caller’s permissions, its parents and in_collections',
      policy: READ,
      ok: CollectionDto,
      errors: [NOT_FOUND],
    }),
    input.caller,
    id,
  ),
  updateCollection: collections.call('update', edit.patch, input.caller, id, input.body(UpdateCollectionDto)),
  deleteCollection: collections.call(
    'remove',
    Route.delete(':collection_id', {
      summary: 'Delete a collection (soft: to the delete queue; it is then 404 to reads)',
      policy: COLLECTION_ROUTE.delete,
      noContent: 'Deleted',
      errors: [NOT_FOUND],
    }),
    input.caller,
    id,
  ),
  createSubcollection: collections.call(
    'create',
    Route.post(':collection_id/subcollections', {
      summary: 'Create a collection under this one (needs write on it)',
      policy: WRITE,
      created: CollectionDto,
      errors: [NOT_FOUND],
    }),
    input.caller,
    input.body(CreateCollectionDto),
    id,
  ),
  getCollectionAncestors: collections.call(
    'ancestors',
    Route.get(':collection_id/ancestors', {
      summary: 'Its ancestors the caller may read, the root first',
      policy: READ,
      ok: CollectionPathDto,
      errors: [NOT_FOUND],
    }),
    input.caller,
    id,
  ),
  getCollectionPath: collections.handle(
    Route.get(':collection_id/full/path', {
      summary: 'Its path: the ancestors the caller may read, the root first, then the collection',
      policy: READ,
      ok: CollectionPathDto,
      errors: [NOT_FOUND],
    }),
    (s, c, i) => s.ancestors(c, i, true),
    input.caller,
    id,
  ),
  replaceCollection: collections.call('update', edit.put, input.caller, id, input.body(UpdateCollectionDto)),
}) {
  constructor(protected readonly collections: CollectionsService) {
    super();
  }
}
