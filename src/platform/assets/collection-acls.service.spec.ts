import { jest } from '@jest/globals';
import type { AccessService } from '../../base/common/auth/access.service.js';
import type { AssetPermission } from '../../base/model/asset-acl.entity.js';
import type { CollectionAclEntity, CollectionContentEntity } from '../../base/model/collection.entity.js';
import type { AssetPermissionsService } from './asset-permissions.js';
import type { AssetsRepository } from './assets.repository.js';
import type { CollectionAclsRepository } from './collection-acls.repository.js';
import { CollectionAclsService } from './collection-acls.service.js';
import type { CollectionEvents } from './collection-events.js';
import type { CollectionPermissionsService } from './collection-permissions.js';
import { CollectionsErrors } from './collections.errors.js';
import type { CollectionsRepository } from './collections.repository.js';
import { authContext, repoWithTransaction, wire } from '../../../test/utils/fakes.js';

const EM = { em: 'tx' };
const NOW = new Date('2026-05-01T12:00:00Z');
const ALL: AssetPermission[] = ['read', 'write', 'delete', 'change-acl'];
const auth = authContext();
const user = { kind: 'user' as const, id: 'u2' };

function setup({
  held = { c1: ALL } as Record<string, AssetPermission[]>,
  assetHeld = {} as Record<string, AssetPermission[]>,
  contents = [] as Partial<CollectionContentEntity>[],
  children = [] as string[],
} = {}) {
  const stored = new Map<string, CollectionAclEntity>();
  const entry = (k: { collection_id: string }, permissions: string[]) =>
    ({
      id: `e-${k.collection_id}`,
      ...k,
      permissions,
      date_created: NOW,
      date_modified: NOW,
    }) as CollectionAclEntity;
  const repo = repoWithTransaction(EM, {
    manager: { em: 'manager' },
    lockAcl: jest.fn(
      async (_em: unknown, k: { collection_id: string }) => stored.get(k.collection_id) ?? null,
    ),
    aclOrFail: jest.fn(async (_em: unknown, k: { collection_id: string }) => stored.get(k.collection_id)!),
    insertAcl: jest.fn(async (_em: unknown, e: { collection_id: string; permissions: string[] }) => {
      stored.set(e.collection_id, entry(e, e.permissions));
    }),
    setAclPermissions: jest.fn(async () => undefined),
    deleteAcl: jest.fn(async () => undefined),
  });
  const collections = {
    contentsOf: jest.fn(async (_em: unknown, id: string) => (id === 'c1' ? contents : [])),
    childIds: jest.fn(async (_em: unknown, id: string) => (id === 'c1' ? children : [])),
  };
  const assets = {
    lockAcl: jest.fn(async () => null),
    insertAcl: jest.fn(async () => undefined),
    setAclPermissions: jest.fn(async () => undefined),
  };
  const access = { require: jest.fn(async () => undefined) };
  const of = (map: Record<string, AssetPermission[]>) =>
    jest.fn(async (_a: unknown, ids: string[]) =>
      ids.filter((i) => map[i]).map((i) => ({ id: i, permissions: map[i]! })),
    );
  const permissions = { find: of(held) };
  const assetPermissions = { find: of(assetHeld) };
  const events = { record: jest.fn(async () => undefined) };
  const service = new CollectionAclsService(
    repo as unknown as CollectionAclsRepository,
    collections as unknown as CollectionsRepository,
    assets as unknown as AssetsRepository,
    access as unknown as AccessService,
    permissions as unknown as CollectionPermissionsService,
    assetPermissions as unknown as AssetPermissionsService,
    events as unknown as CollectionEvents,
  );
  return { service, repo, assets, collections, events };
}

describe('CollectionAclsService', () => {
  it('grants only what the caller holds, before any write', async () => {
    const s = setup({ held: { c1: ['read', 'change-acl'] } });
    await expect(s.service.put(auth, 'c1', user, ['read', 'write']).catch(wire)).resolves.toEqual(
      wire(CollectionsErrors.PERMISSIONS_NOT_HELD(['write'])),
    );
    expect(s.repo.insertAcl).not.toHaveBeenCalled();
  });

  it('a collection the caller cannot read (deleted meanwhile) is a 404', async () => {
    const s = setup({ held: {} });
    await expect(s.service.put(auth, 'c1', user, ['read']).catch(wire)).resolves.toEqual(
      wire(CollectionsErrors.NOT_FOUND()),
    );
  });

  it('without propagate the grant stays on the collection', async () => {
    const s = setup({ contents: [{ object_type: 'asset', object_id: 'a1' }], assetHeld: { a1: ALL } });
    const out = await s.service.put(auth, 'c1', user, ['read']);
    expect(out).toMatchObject({
      created: true,
      entry: { object_type: 'collections', permissions: ['read'] },
    });
    expect(s.collections.contentsOf).not.toHaveBeenCalled();
    expect(s.assets.insertAcl).not.toHaveBeenCalled();
    expect(s.events.record).toHaveBeenCalledWith(
      EM,
      auth,
      'c1',
      'acl_change',
      expect.objectContaining({ propagate: false }),
    );
  });

  it('propagate copies the grant to contents and subcollections the caller may change, and only those', async () => {
    const s = setup({
      held: { c1: ALL, sub: ALL, readonly: ['read'] },
      assetHeld: { a1: ['read', 'change-acl'], a2: ['read'] },
      contents: [
        { object_type: 'asset', object_id: 'a1' },
        { object_type: 'asset', object_id: 'a2' },
        { object_type: 'collection', object_id: 'readonly' },
      ],
      children: ['sub'],
    });
    await s.service.put(auth, 'c1', user, ['read'], true);
    expect(s.assets.insertAcl).toHaveBeenCalledTimes(1);
    expect(s.assets.insertAcl).toHaveBeenCalledWith(EM, {
      asset_id: 'a1',
      user_id: 'u2',
      permissions: ['read'],
    });
    const collectionsGranted = s.repo.insertAcl.mock.calls.map(
      (c) => (c[1] as { collection_id: string }).collection_id,
    );
    expect(collectionsGranted.sort()).toEqual(['c1', 'sub']);
  });

  it('propagate does not grant on an asset where the caller lacks a permission of the grant', async () => {
    const s = setup({
      held: { c1: ALL },
      assetHeld: { a1: ['read', 'change-acl'] },
      contents: [{ object_type: 'asset', object_id: 'a1' }],
    });
    await s.service.put(auth, 'c1', user, ['read', 'write'], true);
    expect(s.assets.insertAcl).not.toHaveBeenCalled();
  });
});
