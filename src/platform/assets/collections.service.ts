import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { searchedPageList } from '../../base/common/http/page-list.js';
import { ASSET_PERMISSIONS } from '../../base/model/asset-acl.entity.js';
import type { CollectionEntity } from '../../base/model/collection.entity.js';
import { changedFields } from './changed-fields.js';
import { CollectionAclsRepository } from './collection-acls.repository.js';
import { CollectionEvents } from './collection-events.js';
import { CollectionPermissionsService } from './collection-permissions.js';
import { collectionView } from './collection-view.js';
import { CollectionsErrors } from './collections.errors.js';
import { CollectionsRepository } from './collections.repository.js';
import type {
  CollectionDto,
  CollectionListDto,
  CollectionListQueryDto,
  CollectionPathDto,
  CreateCollectionDto,
  UpdateCollectionDto,
} from './dto/collection.dto.js';

const SORTABLE = ['title', 'date_created', 'date_modified', 'status', 'category'] as const;
const FACETS = ['status', 'category'] as const;
const EDITABLE = ['title', 'status', 'category', 'external_id'] as const;

/**
 * Collections of a domain (`/API/assets/v1/collections/`). The route's access step has allowed the caller
 * on the path's collection; every query still names the caller's domain, a deleted collection is not found,
 * and a parent named in a body must be a live collection the caller may read (else 404) and write (else
 * 403). A collection is never moved under itself or one of its descendants (400). Changes record their
 * webhook event and audit record in their own transaction (collection-events.ts).
 */
@Injectable()
export class CollectionsService {
  constructor(
    private readonly repo: CollectionsRepository,
    private readonly acls: CollectionAclsRepository,
    private readonly permissions: CollectionPermissionsService,
    private readonly events: CollectionEvents,
    private readonly clock: Clock,
  ) {}

  /** Creates a collection (under `body.parent_id`, or `parentId` from the path); the creator holds all. */
  create(auth: AuthContext, body: CreateCollectionDto, parentId?: string): Promise<CollectionDto> {
    return this.repo.transaction(async (em) => {
      const parent = parentId ?? body.parent_id ?? null;
      if (parent) await this.requireWritable(em, auth, parent);
      const created = await this.repo.insertCollection(em, {
        system_domain_id: auth.systemDomainId,
        title: body.title,
        status: body.status ?? 'ACTIVE',
        category: body.category ?? null,
        external_id: body.external_id ?? null,
        parent_id: parent,
        created_by_user: auth.userId,
      });
      await this.acls.insertAcl(em, {
        collection_id: created.id,
        user_id: auth.userId,
        permissions: [...ASSET_PERMISSIONS],
      });
      await this.repo.refreshSearchDocument(em, created.id);
      const view = await this.view(em, auth, created.id);
      await this.events.record(em, auth, created.id, 'create', { ...view });
      return view;
    });
  }

  get(auth: AuthContext, id: string): Promise<CollectionDto> {
    return this.view(this.repo.manager, auth, id);
  }

  async list(
    auth: AuthContext,
    q: CollectionListQueryDto,
    path: string,
    deleted = false,
  ): Promise<CollectionListDto> {
    return (await searchedPageList({
      search: (text) => this.repo.readableQuery(auth, { text, deleted }),
      alias: 'c',
      q,
      sortable: SORTABLE,
      defaultSort: [{ field: deleted ? 'date_deleted' : 'date_created', order: 'DESC' }],
      path,
      facets: FACETS,
      view: (rows) => this.views(this.repo.manager, auth, rows),
    })) as unknown as CollectionListDto;
  }

  update(auth: AuthContext, id: string, body: UpdateCollectionDto): Promise<CollectionDto> {
    return this.repo.transaction(async (em) => {
      const current = await this.locked(em, auth, id);
      const changes = changedFields(body, current, EDITABLE);
      if (body.parent_id !== undefined && body.parent_id !== current.parent_id) {
        if (body.parent_id !== null) await this.requireNoCycle(em, auth, id, body.parent_id);
        changes.parent_id = body.parent_id;
      }
      if (Object.keys(changes).length === 0) return this.view(em, auth, id);
      await this.repo.updateCollection(em, id, changes);
      if (changes.title !== undefined) await this.repo.refreshSearchDocument(em, id);
      const view = await this.view(em, auth, id);
      await this.events.record(em, auth, id, 'update', { ...view });
      return view;
    });
  }

  /** Soft: to the delete queue (status DELETED, date_deleted, deleted_by_user); reads answer 404. */
  async remove(auth: AuthContext, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      await this.locked(em, auth, id);
      await this.repo.updateCollection(em, id, {
        status: 'DELETED',
        date_deleted: this.clock.now(),
        deleted_by_user: auth.userId,
      });
      const [row] = await this.repo.byIds(em, [id]);
      await this.events.record(em, auth, id, 'delete', { ...(await this.bareView(em, auth, row!)) });
    });
  }

  /** The ancestors the caller may read, the root first (`withSelf`: and the collection last: its path). */
  async ancestors(auth: AuthContext, id: string, withSelf = false): Promise<CollectionPathDto> {
    const em = this.repo.manager;
    const self = await this.view(em, auth, id);
    const ids = (await this.repo.ancestorIds(em, [id])).get(id) ?? [];
    const rows = await this.repo.byIds(em, ids);
    const byId = new Map(rows.filter((r) => !r.date_deleted).map((r) => [r.id, r]));
    const objects = await this.views(
      em,
      auth,
      ids.map((a) => byId.get(a)).filter((r): r is CollectionEntity => !!r),
    );
    return { objects: withSelf ? [...objects, self] : objects };
  }

  /** The collection as the caller sees it; 404 when it is not readable (deleted, another domain's, no ACL). */
  async view(em: EntityManager, auth: AuthContext, id: string): Promise<CollectionDto> {
    const row = await this.repo.inDomain(em, id, auth.systemDomainId);
    if (!row || row.date_deleted) throw CollectionsErrors.NOT_FOUND();
    const [view] = await this.views(em, auth, [row]);
    if (!view) throw CollectionsErrors.NOT_FOUND();
    return view;
  }

  /** Views of the readable ones among `rows` (others are dropped), in their order. */
  async views(em: EntityManager, auth: AuthContext, rows: CollectionEntity[]): Promise<CollectionDto[]> {
    if (rows.length === 0) return [];
    const deleted = rows.filter((r) => r.date_deleted).map((r) => r.id);
    const live = rows.filter((r) => !r.date_deleted).map((r) => r.id);
    const found = [
      ...(await this.permissions.find(auth, live, em)),
      ...(await this.permissions.find(auth, deleted, em, true)),
    ];
    const perms = new Map(
      found.filter((r) => r.permissions.includes('read')).map((r) => [r.id, r.permissions]),
    );
    const readableRows = rows.filter((r) => perms.has(r.id));
    const ids = readableRows.map((r) => r.id);
    const ancestors = await this.repo.ancestorIds(em, ids);
    const readableAncestors = await this.permissions.readable(
      auth,
      [...new Set([...ancestors.values()].flat())],
      em,
    );
    const containing = await this.repo.containing(em, auth, 'collection', ids);
    const metadata = await this.repo.metadataOf(em, ids);
    return readableRows.map((r) =>
      collectionView(r, {
        permissions: perms.get(r.id)!,
        parents: (ancestors.get(r.id) ?? []).filter((a) => readableAncestors.has(a)),
        in_collections: containing.get(r.id) ?? [],
        metadata: metadata.get(r.id),
      }),
    );
  }

  /**
   * A live collection of the domain the caller may read (else 404) and write (else 403): a parent, or the
   * collection an asset is assigned to, or one whose contents change.
   */
  async requireWritable(em: EntityManager, auth: AuthContext, id: string): Promise<void> {
    const [row] = await this.permissions.find(auth, [id], em);
    if (!row?.permissions.includes('read')) throw CollectionsErrors.NOT_FOUND();
    if (!row.permissions.includes('write')) throw CollectionsErrors.PERMISSION_DENIED('write');
  }

  /** A view of a row the caller just changed, whatever its state (events of deletes and restores). */
  async bareView(em: EntityManager, auth: AuthContext, row: CollectionEntity): Promise<CollectionDto> {
    const ancestors = (await this.repo.ancestorIds(em, [row.id])).get(row.id) ?? [];
    const metadata = (await this.repo.metadataOf(em, [row.id])).get(row.id);
    return collectionView(row, { permissions: [], parents: ancestors, in_collections: [], metadata });
  }

  /**
   * Rebuilds the search document of one collection in the change's transaction (the metadata feature's PUT
   * and field removal change what it is made of).
   */
  refreshSearchDocument(em: EntityManager, id: string): Promise<void> {
    return this.repo.refreshSearchDocument(em, id);
  }

  private async requireNoCycle(
    em: EntityManager,
    auth: AuthContext,
    id: string,
    parentId: string,
  ): Promise<void> {
    await this.requireWritable(em, auth, parentId);
    await this.repo.lockTree(em, auth.systemDomainId);
    const chain = (await this.repo.ancestorIds(em, [parentId])).get(parentId) ?? [];
    if (parentId === id || chain.includes(id)) {
      throw CollectionsErrors.INVALID({
        parent_id: 'must not be the collection itself or one of its descendants',
      });
    }
  }

  private async locked(em: EntityManager, auth: AuthContext, id: string): Promise<CollectionEntity> {
    const row = await this.repo.lockInDomain(em, id, auth.systemDomainId);
    if (!row || row.date_deleted) throw CollectionsErrors.NOT_FOUND();
    return row;
  }
}
