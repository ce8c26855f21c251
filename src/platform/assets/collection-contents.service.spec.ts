import { jest } from '@jest/globals';
import type { AssetPermission } from '../../base/model/asset-acl.entity.js';
import { CollectionContentsService, objectType } from './collection-contents.service.js';
import { CollectionsErrors } from './collections.errors.js';
import { AuthErrors } from '../../base/common/auth/auth.errors.js';
import { authContext, repoWithTransaction, wire } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { permissionsOf } from '../../../test/utils/fakes/assets.js';

const C = '0b0e4c1e-4f3c-4c55-9a53-1d6c2b7f9e01';
const ROLES = ['can_read_assets', 'can_read_collections', 'can_write_collections'];
const auth = authContext({ roles: ROLES, kind: 'LOGIN' });

function setup({
  assetPerms = ['read'] as AssetPermission[] | null,
  collectionPerms = { c2: ['read'] } as Record<string, AssetPermission[]>,
  ancestors = [] as string[],
} = {}) {
  const repo = repoWithTransaction(EM, {
    insertContent: jest.fn(async () => true),
    content: jest.fn(async (_em: unknown, key: object) => ({ ...key, date_created: NOW })),
    deleteContent: jest.fn(async () => true),
    ancestorIds: jest.fn(async (_em: unknown, ids: string[]) => new Map([[ids[0]!, ancestors]])),
  });
  const collections = { requireWritable: jest.fn(async () => undefined) };
  const collectionPermissions = permissionsOf(collectionPerms);
  const assets = { create: jest.fn(async () => ({ id: 'a1' })) };
  const assetPermissions = {
    find: jest.fn(async (_a: unknown, ids: string[]) =>
      assetPerms ? ids.map((id) => ({ id, permissions: assetPerms })) : [],
    ),
  };
  const events = { record: jest.fn(async () => undefined) };
  const service = construct(
    CollectionContentsService,
    repo,
    collections,
    collectionPermissions,
    assets,
    assetPermissions,
    events,
  );
  return { service, repo, collections, assets, events };
}

describe('CollectionContentsService', () => {
  it('object types: asset and collection, and their plurals; anything else is a 400', () => {
    expect([objectType('assets'), objectType('collection')]).toEqual(['asset', 'collection']);
    expect(
      wire(
        (() => {
          try {
            objectType('folder');
          } catch (e) {
            return e;
          }
        })(),
      ),
    ).toEqual(wire(CollectionsErrors.INVALID({ object_type: 'must be one of asset, collection' })));
  });

  it('add: needs write on the collection and read on the asset (else 404, nothing added)', async () => {
    const s = setup({ assetPerms: null });
    await expect(s.service.add(auth, 'c1', 'asset', 'a1').catch(wire)).resolves.toEqual(
      wire(CollectionsErrors.OBJECT_NOT_FOUND()),
    );
    expect(s.collections.requireWritable).toHaveBeenCalledWith(EM, auth, 'c1');
    expect(s.repo.insertContent).not.toHaveBeenCalled();
    const ok = setup();
    const out = await ok.service.add(auth, 'c1', 'assets', 'a1');
    expect(out).toMatchObject({
      added: true,
      entry: { collection_id: 'c1', object_type: 'asset', object_id: 'a1' },
    });
    expect(ok.events.record).toHaveBeenCalledWith(EM, auth, 'c1', 'content_add', expect.anything());
  });

  it('add: a collection may not contain itself or one of its ancestors (400)', async () => {
    const s = setup({ collectionPerms: { c0: ['read'], c1: ['read'] }, ancestors: ['c0'] });
    for (const id of ['c0', 'c1']) {
      await expect(s.service.add(auth, 'c1', 'collection', id).catch(wire)).resolves.toMatchObject({
        status: 400,
      });
    }
    expect(s.repo.insertContent).not.toHaveBeenCalled();
  });

  it('remove: an object not in the collection is a 404', async () => {
    const s = setup();
    s.repo.content.mockResolvedValueOnce(null as never);
    await expect(s.service.remove(auth, 'c1', 'asset', 'a1').catch(wire)).resolves.toEqual(
      wire(CollectionsErrors.CONTENT_NOT_FOUND()),
    );
    expect(s.repo.deleteContent).not.toHaveBeenCalled();
  });

  describe('createAsset (assign_to_collection)', () => {
    it('an empty collection_id, or no assign_to_collection, creates the asset alone', async () => {
      const s = setup();
      await s.service.createAsset(auth, { title: 't', collection_id: '' }, true);
      await s.service.createAsset(auth, { title: 't', collection_id: C }, false);
      expect(s.assets.create.mock.calls.map((c) => c.length)).toEqual([2, 2]);
    });

    it('a malformed collection_id is a 400 before anything is created', async () => {
      const s = setup();
      await expect(
        s.service.createAsset(auth, { title: 't', collection_id: 'x' }, true).catch(wire),
      ).resolves.toEqual(wire(CollectionsErrors.INVALID({ collection_id: 'must be a UUID' })));
      expect(s.assets.create).not.toHaveBeenCalled();
    });

    it('checks the collection (roles first) before the asset is written, and assigns it after', async () => {
      const s = setup();
      await s.service.createAsset(auth, { title: 't', collection_id: C }, true);
      const hooks = s.assets.create.mock.calls[0]![2 as never] as unknown as {
        check: (em: unknown) => Promise<void>;
        after: (em: unknown, id: string) => Promise<void>;
      };
      await hooks.check(EM);
      expect(s.collections.requireWritable).toHaveBeenCalledWith(EM, auth, C);
      await hooks.after(EM, 'a1');
      expect(s.repo.insertContent).toHaveBeenCalledWith(EM, {
        collection_id: C,
        object_type: 'asset',
        object_id: 'a1',
      });
      const noRole = setup();
      const bare = authContext({ roles: ['can_write_assets'], kind: 'LOGIN' });
      await noRole.service.createAsset(bare, { title: 't', collection_id: C }, true);
      const h = noRole.assets.create.mock.calls[0]![2 as never] as unknown as {
        check: (em: unknown) => Promise<void>;
      };
      await expect(h.check(EM).catch(wire)).resolves.toEqual(
        wire(AuthErrors.MISSING_ROLE(['can_read_collections', 'can_write_collections'])),
      );
      expect(noRole.collections.requireWritable).not.toHaveBeenCalled();
    });
  });
});
