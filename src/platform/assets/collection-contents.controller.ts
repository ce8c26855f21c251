import { Controller, Param, Put, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { COLLECTION_ROUTE } from './collection-access.js';
import { CollectionContentsService } from './collection-contents.service.js';
import {
  CollectionContentBodyDto,
  CollectionContentDto,
  CollectionContentsDto,
} from './dto/collection.dto.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe('Collection');
const object = new UuidParamPipe('Object');
const param = 'collection_id';
const WRITE = COLLECTION_ROUTE.write;
const NOT_FOUND = {
  404: 'No such collection the caller may read, object the caller may read, or object in the collection',
};
const contents = ServiceRoutes<CollectionContentsService>('contents');

/** PUT stays written (@Res: 200, or 201 when added); inherited, so between POST and DELETE. */
abstract class ContentPutRoute extends contents.handlers({
  deleteCollectionContent: contents.call(
    'remove',
    Route.delete(':object_type/:object_id', {
      summary: 'Remove the object from it (the object itself stays); needs write',
      policy: WRITE,
      noContent: 'Removed',
    }),
    input.caller,
    input.uuidParam(param, 'Collection'),
    input.param('object_type'),
    input.uuidParam('object_id', 'Object'),
  ),
}) {
  protected abstract readonly contents: CollectionContentsService;

  @Put(':object_type/:object_id')
  @Authenticated(WRITE)
  @ApiOperation({ summary: 'Add the object if it is not there yet (200, or 201 when added); needs write' })
  @ApiOkResponse({ type: CollectionContentDto })
  @ApiCreatedResponse({ type: CollectionContentDto })
  async putCollectionContent(
    @Param(param, uuid) id: string,
    @Param('object_type') type: string,
    @Param('object_id', object) objectId: string,
    @Caller() auth: AuthContext,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CollectionContentDto> {
    const { entry, added } = await this.contents.add(auth, id, type, objectId);
    res.status(added ? 201 : 200);
    return entry;
  }
}

/** What a collection contains: assets and collections (issue 38). */
@ApiTags('collections')
@ApiErrors(400, NOT_FOUND)
@Controller('API/assets/v1/collections/:collection_id/contents')
export class CollectionContentsController extends contents.handlers(
  {
    listCollectionContents: contents.call(
      'list',
      Route.get({
        summary:
          'Its contents the caller may read (assets with object_type assets, collections with object_type collection), oldest first, page style',
        policy: COLLECTION_ROUTE.read,
        ok: CollectionContentsDto,
      }),
      input.caller,
      input.uuidParam(param, 'Collection'),
      input.query(PageQueryDto),
      input.path,
    ),
    addCollectionContent: contents.handle(
      Route.post({
        summary:
          'Add an asset or a collection of the domain (one the caller may read) to it; needs write on the collection',
        policy: WRITE,
        created: CollectionContentDto,
      }),
      async (s, c, i, b) => (await s.add(c, i, b.object_type, b.object_id)).entry,
      input.caller,
      input.uuidParam(param, 'Collection'),
      input.body(CollectionContentBodyDto),
    ),
  },
  ContentPutRoute,
) {
  constructor(protected readonly contents: CollectionContentsService) {
    super();
  }
}
