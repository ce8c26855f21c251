import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { assertRoles } from '../../base/common/auth/assert-roles.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { pageEnvelope } from '../../base/common/http/list-envelope.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { isUuid } from '../../base/common/validation/uuid.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import type { CollectionContentEntity, CollectionObjectType } from '../../base/model/collection.entity.js';
import { AssetPermissionsService } from './asset-permissions.js';
import { AssetsService } from './assets.service.js';
import { CollectionEvents } from './collection-events.js';
import { CollectionPermissionsService } from './collection-permissions.js';
import { CollectionsErrors } from './collections.errors.js';
import { type ContentKey, CollectionsRepository } from './collections.repository.js';
import { CollectionsService } from './collections.service.js';
import type { AssetDto, CreateAssetDto } from './dto/asset.dto.js';
import type { CollectionContentDto, CollectionContentsDto, CollectionDto } from './dto/collection.dto.js';

/** `asset` and `collection`, and the plural forms some clients send (`assets`, `collections`). */
export function objectType(value: string): CollectionObjectType {
  if (value === 'asset' || value === 'assets') return 'asset';
  if (value === 'collection' || value === 'collections') return 'collection';
  throw CollectionsErrors.INVALID({ object_type: 'must be one of asset, collection' });
}

/**
 * What a collection contains: assets and collections of its domain. Reading the contents never shows an
 * object the caller may not read (nor a deleted one): the page, and its total, are filtered in the query.
 * Changing them needs `write` on the collection (the route's access step, checked again in the change's
 * transaction) and `read` on the object (else 404, so an unreadable object's existence is not confirmed).
 */
@Injectable()
export class CollectionContentsService {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly collections: CollectionsService,
    private readonly collectionPermissions: CollectionPermissionsService,
    private readonly assets: AssetsService,
    private readonly assetPermissions: AssetPermissionsService,
    private readonly events: CollectionEvents,
  ) {}

  async list(auth: AuthContext, id: string, q: PageQueryDto, path: string): Promise<CollectionContentsDto> {
    const em = this.repo.manager;
    await this.collections.view(em, auth, id);
    const { rows, total } = await this.repo.contentsPage(em, auth, id, {
      offset: (q.page - 1) * q.per_page,
      limit: q.per_page,
    });
    const assetIds = rows.filter((r) => r.object_type === 'asset').map((r) => r.object_id);
    const assets = await this.assets.readablePage(auth, assetIds);
    const collectionRows = await this.repo.byIds(
      em,
      rows.filter((r) => r.object_type === 'collection').map((r) => r.object_id),
    );
    const collections = new Map(
      (await this.collections.views(em, auth, collectionRows)).map((v) => [v.id, v]),
    );
    const objects: (AssetDto | CollectionDto)[] = [];
    for (const r of rows) {
      const view = r.object_type === 'asset' ? assets.get(r.object_id)?.view : collections.get(r.object_id);
      if (view) objects.push(view);
    }
    return pageEnvelope(objects, total, q.page, q.per_page, path, {}) as CollectionContentsDto;
  }

  /** Adds the object (if it is not there yet); `added` tells whether it was new. */
  add(
    auth: AuthContext,
    id: string,
    type: string,
    objectId: string,
  ): Promise<{ entry: CollectionContentDto; added: boolean }> {
    const key: ContentKey = { collection_id: id, object_type: objectType(type), object_id: objectId };
    return this.repo.transaction(async (em) => {
      await this.collections.requireWritable(em, auth, id);
      await this.requireReadable(em, auth, key);
      if (key.object_type === 'collection') await this.requireNoLoop(em, id, objectId);
      const added = await this.repo.insertContent(em, key);
      const entry = contentView((await this.repo.content(em, key))!);
      if (added) await this.events.record(em, auth, id, 'content_add', { ...entry });
      return { entry, added };
    });
  }

  async remove(auth: AuthContext, id: string, type: string, objectId: string): Promise<void> {
    const key: ContentKey = { collection_id: id, object_type: objectType(type), object_id: objectId };
    await this.repo.transaction(async (em) => {
      await this.collections.requireWritable(em, auth, id);
      const entry = await this.repo.content(em, key);
      if (!entry) throw CollectionsErrors.CONTENT_NOT_FOUND();
      await this.repo.deleteContent(em, key);
      await this.events.record(em, auth, id, 'content_remove', { ...contentView(entry) });
    });
  }

  /**
   * POST /v1/assets/: with `assign_to_collection` and a non-empty `collection_id` the new asset is added to
   * that collection in its creation's transaction (an empty collection_id is ignored, as clients send it).
   */
  async createAsset(auth: AuthContext, body: CreateAssetDto, assign: boolean): Promise<AssetDto> {
    const collectionId = assign ? body.collection_id?.trim() : undefined;
    if (!collectionId) return this.assets.create(auth, body);
    if (!isUuid(collectionId)) throw CollectionsErrors.INVALID({ collection_id: 'must be a UUID' });
    return this.assets.create(auth, body, {
      check: (em) => this.checkAssignable(em, auth, collectionId),
      after: (em, assetId) => this.assign(em, auth, collectionId, assetId),
    });
  }

  /**
   * Assigns a new asset to a collection in the asset's creation transaction (`assign_to_collection`): the
   * collection must be one the caller may read (else 404) and write (else 403), with the collection roles.
   */
  private async checkAssignable(em: EntityManager, auth: AuthContext, collectionId: string): Promise<void> {
    assertRoles(auth, ['can_read_collections', 'can_write_collections']);
    await this.collections.requireWritable(em, auth, collectionId);
  }

  private async assign(
    em: EntityManager,
    auth: AuthContext,
    collectionId: string,
    assetId: string,
  ): Promise<void> {
    const key: ContentKey = { collection_id: collectionId, object_type: 'asset', object_id: assetId };
    await this.repo.insertContent(em, key);
    const entry = contentView((await this.repo.content(em, key))!);
    await this.events.record(em, auth, collectionId, 'content_add', { ...entry });
  }

  private async requireReadable(em: EntityManager, auth: AuthContext, key: ContentKey): Promise<void> {
    if (key.object_type === 'asset') {
      assertRoles(auth, ['can_read_assets']);
      const [row] = await this.assetPermissions.find(auth, [key.object_id], em);
      if (!row?.permissions.includes('read')) throw CollectionsErrors.OBJECT_NOT_FOUND();
      return;
    }
    const [row] = await this.collectionPermissions.find(auth, [key.object_id], em);
    if (!row?.permissions.includes('read')) throw CollectionsErrors.OBJECT_NOT_FOUND();
  }

  /** A collection does not contain itself nor one of its ancestors. */
  private async requireNoLoop(em: EntityManager, id: string, objectId: string): Promise<void> {
    const chain = (await this.repo.ancestorIds(em, [id])).get(id) ?? [];
    if (objectId === id || chain.includes(objectId)) {
      throw CollectionsErrors.INVALID({
        object_id: 'must not be the collection itself or one of its ancestors',
      });
    }
  }
}

function contentView(e: CollectionContentEntity): CollectionContentDto {
  return {
    collection_id: e.collection_id,
    object_id: e.object_id,
    object_type: e.object_type,
    date_created: wireDate(e.date_created),
  };
}
