import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { DELETED_COLLECTION_ACCESS } from './collection-access.js';
import { CollectionQueueService } from './collection-queue.service.js';
import { CollectionsService } from './collections.service.js';
import { CollectionIdsDto, CollectionListDto, CollectionListQueryDto } from './dto/collection.dto.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe('Collection');
const param = 'collection_id';
const DELETE = { roles: ['can_delete_collections' as const] };
const ONE = { ...DELETE, access: { entity: DELETED_COLLECTION_ACCESS, param } };
const NOT_FOUND = { 404: 'No such deleted collection the caller may read' };

/**
 * The delete queue of collections (issue 38): the deleted collections of the caller's domain, restored or
 * purged one at a time, by a list of ids (`{collection_ids}`), or all of those the caller may delete.
 */
@ApiTags('collections')
@ApiErrors(400)
@Controller('API/assets/v1')
export class CollectionQueueController {
  constructor(
    private readonly queue: CollectionQueueService,
    private readonly collections: CollectionsService,
  ) {}

  @Route.put('collections/:collection_id/restore', {
    summary: 'Restore a deleted collection (needs delete on it)',
    policy: ONE,
    noContent: 'Restored',
    errors: [NOT_FOUND],
  })
  restoreCollection(@Param(param, uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.queue.restore(caller, [id]);
  }

  @Route.delete('collections/:collection_id/purge', {
    summary: 'Purge a deleted collection for good (needs delete on it); its children become roots',
    policy: ONE,
    noContent: 'Purged',
    errors: [NOT_FOUND],
  })
  purgeCollection(@Param(param, uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.queue.purge(caller, [id]);
  }

  @Route.get('delete_queue/collections', {
    summary: 'The deleted collections of the caller’s domain the caller may read (page style)',
    policy: { roles: ['can_read_collections'] },
    ok: CollectionListDto,
  })
  listDeletedCollections(
    @Query() q: CollectionListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<CollectionListDto> {
    return this.collections.list(caller, q, req.path, true);
  }

  @Route.post('delete_queue/collections', {
    summary: 'Restore the deleted collections named by collection_ids (all or none)',
    policy: DELETE,
    noContent: 'Restored',
    errors: [NOT_FOUND],
  })
  restoreDeletedCollections(@Body() body: CollectionIdsDto, @Caller() caller: AuthContext): Promise<void> {
    return this.queue.restore(caller, body.collection_ids);
  }

  @Route.delete('delete_queue/collections', {
    summary: 'Purge the deleted collections named by collection_ids (all or none)',
    policy: DELETE,
    noContent: 'Purged',
    errors: [NOT_FOUND],
  })
  purgeDeletedCollections(@Body() body: CollectionIdsDto, @Caller() caller: AuthContext): Promise<void> {
    return this.queue.purge(caller, body.collection_ids);
  }

  @Route.post('delete_queue/collections/purge', {
    summary:
      'Purge the deleted collections named by collection_ids (as DELETE, for clients without a DELETE body)',
    policy: DELETE,
    noContent: 'Purged',
    errors: [NOT_FOUND],
  })
  purgeCollectionsFromQueue(@Body() body: CollectionIdsDto, @Caller() caller: AuthContext): Promise<void> {
    return this.queue.purge(caller, body.collection_ids);
  }

  @Route.post('delete_queue/collections/purge/all', {
    summary: 'Purge every deleted collection of the domain the caller may delete',
    policy: DELETE,
    noContent: 'Purged',
  })
  async purgeAllDeletedCollections(@Caller() caller: AuthContext): Promise<void> {
    await this.queue.purge(caller, await this.queue.all(caller));
  }

  @Route.post('delete_queue/collections/restore/all', {
    summary: 'Restore every deleted collection of the domain the caller may delete',
    policy: DELETE,
    noContent: 'Restored',
  })
  async restoreAllDeletedCollections(@Caller() caller: AuthContext): Promise<void> {
    await this.queue.restore(caller, await this.queue.all(caller));
  }
}
