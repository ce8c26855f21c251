/** Asset and collection rows, as the asset, collection and metadata specs build them. */
import { jest } from '@jest/globals';
import type { AssetPermission } from '../../../src/base/model/asset-acl.entity.js';
import type { AssetEntity } from '../../../src/base/model/asset.entity.js';
import type { CollectionEntity } from '../../../src/base/model/collection.entity.js';
import { EM, NOW } from './fixtures.js';

/** A live row: created by u1 at NOW, never deleted. */
const LIVE = {
  created_by_user: 'u1',
  deleted_by_user: null,
  date_deleted: null,
  date_created: NOW,
  date_modified: NOW,
};

/** What a new asset is where its body says nothing: an active, online ASSET, not analysed nor archived. */
export const NEW_ASSET = {
  type: 'ASSET',
  status: 'ACTIVE',
  analyze_status: 'N/A',
  archive_status: 'NOT_ARCHIVED',
  is_online: true,
  media_type: null,
};

/** Asset a1 'Harbour' of domain d1, live, its current version v1; `over` on top. */
export const assetRow = (over: Partial<AssetEntity> = {}) =>
  ({
    id: 'a1',
    system_domain_id: 'd1',
    title: 'Harbour',
    ...NEW_ASSET,
    external_id: null,
    current_version_id: 'v1',
    ...LIVE,
    ...over,
  }) as AssetEntity;

/** Collection c1 'Harbour' of domain d1: live, active, top level, no custom order; `over` on top. */
export const collectionRow = (over: Partial<CollectionEntity> = {}) =>
  ({
    id: 'c1',
    system_domain_id: 'd1',
    title: 'Harbour',
    status: 'ACTIVE',
    category: null,
    external_id: null,
    custom_order_status: 'DISABLED',
    parent_id: null,
    ...LIVE,
    ...over,
  }) as CollectionEntity;

/** A permissions service fake (collections' or assets'): `find` answers the ids `held` names, with theirs. */
export const permissionsOf = (held: Record<string, AssetPermission[]>) => ({
  find: jest.fn(async (_a: unknown, ids: string[]) =>
    ids.filter((i) => held[i]).map((i) => ({ id: i, permissions: held[i]! })),
  ),
});

/** That CollectionEvents recorded the caller's `operation` on collection `id` in EM, with these fields. */
export const expectCollectionEvent = (
  events: { record: unknown },
  caller: unknown,
  id: string,
  operation: string,
  fields: object,
) => expect(events.record).toHaveBeenCalledWith(EM, caller, id, operation, expect.objectContaining(fields));
