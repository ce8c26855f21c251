import { jest } from '@jest/globals';
import type { AssetPermission } from '../../base/model/asset-acl.entity.js';
import type { CollectionAclEntity, CollectionContentEntity } from '../../base/model/collection.entity.js';
import { CollectionAclsService } from './collection-acls.service.js';
import { CollectionsErrors } from './collections.errors.js';
import { authContext, repoWithTransaction, wire } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { expectCollectionEvent, permissionsOf } from '../../../test/utils/fakes/assets.js';

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
  const permissions = permissionsOf(held);
  const assetPermissions = permissionsOf(assetHeld);
  const events = { record: jest.fn(async () => undefined) };
  const service = construct(
    CollectionAclsService,
    repo,
    collections,
    assets,
    access,
    permissions,
    assetPermissions,
    events,
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
    expectCollectionEvent(s.events, auth, 'c1', 'acl_change', { propagate: false });
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
