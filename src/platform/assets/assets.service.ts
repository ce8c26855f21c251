import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Clock } from '../../base/common/clock.js';
import { searchedPageList } from '../../base/common/http/page-list.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { ASSET_PERMISSIONS } from '../../base/model/asset-acl.entity.js';
import type { AssetEntity } from '../../base/model/asset.entity.js';
import { seesAllAssets } from './asset-acl-sql.js';
import { type AssetPageItem, pageItems } from './asset-page.js';
import { AssetPermissionsService } from './asset-permissions.js';
import { assetView } from './asset-view.js';
import { changedFields } from './changed-fields.js';
import { AssetsErrors } from './assets.errors.js';
import { AssetsRepository } from './assets.repository.js';
import { CollectionsRepository } from './collections.repository.js';
import type {
  AssetDto,
  AssetListDto,
  AssetListQueryDto,
  CreateAssetDto,
  UpdateAssetDto,
} from './dto/asset.dto.js';

/** What an asset's creation also does in its transaction (see create). */
export interface AssetCreationHooks {
  check(em: EntityManager): Promise<void>;
  after(em: EntityManager, assetId: string): Promise<void>;
}

const SORTABLE = ['title', 'date_created', 'date_modified', 'type', 'status'] as const;
const FACETS = ['type', 'status'] as const;
const EDITABLE = [
  'title',
  'type',
  'status',
  'analyze_status',
  'archive_status',
  'external_id',
  'is_online',
  'media_type',
] as const;

/**
 * Assets of a domain. The route's ACL (the guard's access step, through the checkers AssetsModule registers)
 * has already allowed the caller; every query still names the caller's domain, and a deleted asset is not
 * found. Changes record their webhook event (event_type assets, realm asset) in their own transaction.
 */
@Injectable()
export class AssetsService {
  constructor(
    private readonly repo: AssetsRepository,
    private readonly permissions: AssetPermissionsService,
    private readonly events: WebhookEventsService,
    private readonly clock: Clock,
    private readonly collections: CollectionsRepository,
  ) {}

  /**
   * `assign`: what else the creation does in its transaction (assign_to_collection): `check` before anything
   * is written (its refusal creates nothing), `after` once the asset exists.
   */
  async create(auth: AuthContext, body: CreateAssetDto, assign?: AssetCreationHooks): Promise<AssetDto> {
    return this.repo.transaction(async (em) => {
      await assign?.check(em);
      const asset = await this.repo.insertAsset(em, {
        system_domain_id: auth.systemDomainId,
        title: body.title,
        type: body.type ?? 'ASSET',
        status: body.status ?? 'ACTIVE',
        analyze_status: body.analyze_status ?? 'N/A',
        archive_status: body.archive_status ?? 'NOT_ARCHIVED',
        external_id: body.external_id ?? null,
        is_online: body.is_online ?? true,
        media_type: body.media_type ?? null,
        created_by_user: auth.userId,
      });
      const version = await this.repo.insertVersion(em, {
        asset_id: asset.id,
        analyze_status: asset.analyze_status,
        archive_status: asset.archive_status,
        is_online: asset.is_online,
        created_by_user: auth.userId,
      });
      await this.repo.updateAsset(em, asset.id, { current_version_id: version.id });
      // the creator holds every permission on what they created
      await this.repo.insertAcl(em, {
        asset_id: asset.id,
        user_id: auth.userId,
        permissions: [...ASSET_PERMISSIONS],
      });
      await this.repo.refreshSearchDocument(em, asset.id);
      await assign?.after(em, asset.id);
      const created = await this.view(em, auth, asset.id);
      await this.emit(em, auth, asset.id, 'create', created);
      return created;
    });
  }

  get(auth: AuthContext, id: string): Promise<AssetDto> {
    return this.view(this.repo.manager, auth, id);
  }

  async list(auth: AuthContext, q: AssetListQueryDto, path: string): Promise<AssetListDto> {
    // facets are asked for, so the envelope always carries them
    return (await searchedPageList({
      search: (text) => this.repo.readableQuery(auth, text),
      alias: 'a',
      q,
      sortable: SORTABLE,
      defaultSort: [{ field: 'date_created', order: 'DESC' }],
      path,
      facets: FACETS,
      view: (rows) => this.views(this.repo.manager, auth, rows),
    })) as unknown as AssetListDto;
  }

  async update(auth: AuthContext, id: string, body: UpdateAssetDto): Promise<AssetDto> {
    return this.repo.transaction(async (em) => {
      const asset = await this.locked(em, auth, id);
      const changes = changedFields(body, asset, EDITABLE);
      if (Object.keys(changes).length === 0) return this.view(em, auth, id);
      await this.repo.updateAsset(em, id, changes);
      if (changes.title !== undefined) await this.repo.refreshSearchDocument(em, id);
      const updated = await this.view(em, auth, id);
      await this.emit(em, auth, id, 'update', updated);
      return updated;
    });
  }

  /** Soft: the asset stays (status DELETED, date_deleted, deleted_by_user) but every read answers 404. */
  async remove(auth: AuthContext, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      await this.locked(em, auth, id);
      await this.repo.updateAsset(em, id, {
        status: 'DELETED',
        date_deleted: this.clock.now(),
        deleted_by_user: auth.userId,
      });
      const deleted = await this.repo.assetOrFail(em, id);
      const versions = await this.repo.versionsOf(em, [id]);
      const { permissions: _p, ...data } = assetView(deleted, versions, []);
      await this.events.record(em, this.event(auth, id, 'delete', data));
    });
  }

  /** The asset as the caller sees it; 404 when it is not readable (deleted, another domain's, no ACL). */
  async view(em: EntityManager, auth: AuthContext, id: string): Promise<AssetDto> {
    const asset = await this.repo.inDomain(em, id, auth.systemDomainId);
    if (!asset || asset.date_deleted) throw AssetsErrors.NOT_FOUND();
    const [view] = await this.views(em, auth, [asset]);
    if (!view) throw AssetsErrors.NOT_FOUND();
    return view;
  }

  /** Views of readable assets (others are dropped), with versions and the caller's permissions. */
  async views(em: EntityManager, auth: AuthContext, assets: AssetEntity[]): Promise<AssetDto[]> {
    if (assets.length === 0) return [];
    const ids = assets.map((a) => a.id);
    const perms = await this.permissions.readable(auth, ids, em);
    const versions = await this.repo.versionsOf(em, ids);
    const containing = await this.collections.containing(em, auth, 'asset', [...perms.keys()]);
    return assets
      .filter((a) => perms.has(a.id))
      .map((a) =>
        assetView(
          a,
          versions.filter((v) => v.asset_id === a.id),
          perms.get(a.id) ?? [],
          containing.get(a.id) ?? [],
        ),
      );
  }

  /**
   * Of `ids`, the assets the caller may read (not deleted, of the caller's domain, `read` through the ACL or
   * as an administrator), each with its versions, the caller's permissions and its current metadata, in one
   * statement (a page of search hits). The others are left out of the map.
   */
  async readablePage(auth: AuthContext, ids: string[]): Promise<Map<string, AssetPageItem>> {
    if (ids.length === 0) return new Map();
    const all = seesAllAssets(auth);
    return pageItems(await this.repo.pageRows(this.repo.manager, auth, ids, all), all);
  }

  /**
   * Rebuilds the search document of one asset in the change's transaction (the metadata feature's PUT
   * changes what it is made of).
   */
  refreshSearchDocument(em: EntityManager, assetId: string): Promise<void> {
    return this.repo.refreshSearchDocument(em, assetId);
  }

  private async locked(em: EntityManager, auth: AuthContext, id: string): Promise<AssetEntity> {
    const asset = await this.repo.lockInDomain(em, id, auth.systemDomainId);
    if (!asset || asset.date_deleted) throw AssetsErrors.NOT_FOUND();
    return asset;
  }

  private emit(
    em: EntityManager,
    auth: AuthContext,
    id: string,
    operation: 'create' | 'update',
    view: AssetDto,
  ): Promise<void> {
    // the caller's permissions describe the caller, not the asset: subscribers do not get them
    const { permissions: _p, ...data } = view;
    return this.events.record(em, this.event(auth, id, operation, data));
  }

  private event(auth: AuthContext, id: string, operation: string, data: Record<string, unknown>) {
    return {
      systemDomainId: auth.systemDomainId,
      objectId: id,
      realm: 'asset',
      operation,
      eventType: 'assets',
      data,
      requestId: auth.requestId,
    };
  }
}
