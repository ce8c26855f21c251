import { jest } from '@jest/globals';
import type { AssetPermission } from '../../base/model/asset-acl.entity.js';
import type { CollectionEntity } from '../../base/model/collection.entity.js';
import { CollectionsErrors } from './collections.errors.js';
import { CollectionsService } from './collections.service.js';
import { fixedClock, memberContext, repoWithTransaction, wire } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { collectionRow as row, expectCollectionEvent } from '../../../test/utils/fakes/assets.js';

const ALL: AssetPermission[] = ['read', 'write', 'delete', 'change-acl'];
const auth = memberContext();

/** `perms`: the caller's permissions per collection id (absent: not found or not readable). */
function setup({
  rows = { c1: row() } as Record<string, CollectionEntity>,
  perms = { c1: ALL } as Record<string, AssetPermission[]>,
  ancestors = {} as Record<string, string[]>,
} = {}) {
  const repo = repoWithTransaction(EM, {
    manager: { em: 'manager' },
    insertCollection: jest.fn(async (_em: unknown, f: Partial<CollectionEntity>) => {
      rows.new = row({ ...f, id: 'new' });
      perms.new = ALL;
      return rows.new;
    }),
    updateCollection: jest.fn(async (_em: unknown, id: string, changes: Partial<CollectionEntity>) => {
      rows[id] = { ...rows[id]!, ...changes };
    }),
    inDomain: jest.fn(async (_em: unknown, id: string) => rows[id] ?? null),
    lockInDomain: jest.fn(async (_em: unknown, id: string) => rows[id] ?? null),
    byIds: jest.fn(async (_em: unknown, ids: string[]) => ids.map((i) => rows[i]).filter(Boolean)),
    refreshSearchDocument: jest.fn(async () => undefined),
    lockTree: jest.fn(async () => undefined),
    ancestorIds: jest.fn(
      async (_em: unknown, ids: string[]) =>
        new Map(ids.filter((i) => ancestors[i]).map((i) => [i, ancestors[i]!])),
    ),
    containing: jest.fn(async () => new Map<string, string[]>()),
    metadataOf: jest.fn(
      async () => new Map<string, Record<string, unknown[]>>([['c1', { topics: ['sea', 'boats'] }]]),
    ),
  });
  const acls = { insertAcl: jest.fn(async () => undefined) };
  const find = jest.fn(async (_a: unknown, ids: string[]) =>
    ids.filter((i) => perms[i]).map((i) => ({ id: i, permissions: perms[i]! })),
  );
  const permissions = {
    find,
    readable: jest.fn(async (_a: unknown, ids: string[]) => {
      const found = await find(_a, ids);
      return new Map(found.filter((r) => r.permissions.includes('read')).map((r) => [r.id, r.permissions]));
    }),
  };
  const events = { record: jest.fn(async () => undefined) };
  const service = construct(CollectionsService, repo, acls, permissions, events, fixedClock(NOW));
  return { service, repo, acls, permissions, events };
}

describe('CollectionsService', () => {
  describe('create', () => {
    it('gives the creator every permission, writes the search document and records the event, in one transaction', async () => {
      const s = setup();
      const out = await s.service.create(auth, { title: 'New one' });
      expect(s.repo.transaction).toHaveBeenCalledTimes(1);
      expect(s.acls.insertAcl).toHaveBeenCalledWith(EM, {
        collection_id: 'new',
        user_id: 'u1',
        permissions: ALL,
      });
      expect(s.repo.refreshSearchDocument).toHaveBeenCalledWith(EM, 'new');
      expect(out).toMatchObject({ id: 'new', title: 'New one', is_root: true, object_type: 'collection' });
      expectCollectionEvent(s.events, auth, 'new', 'create', { id: 'new' });
    });

    it('a parent the caller cannot read is a 404, one they cannot write a 403: nothing is created', async () => {
      const hidden = setup({ perms: { c1: ['write'] } });
      await expect(hidden.service.create(auth, { title: 'x', parent_id: 'c1' }).catch(wire)).resolves.toEqual(
        wire(CollectionsErrors.NOT_FOUND()),
      );
      expect(hidden.repo.insertCollection).not.toHaveBeenCalled();
      const readOnly = setup({ perms: { c1: ['read'] } });
      await expect(readOnly.service.create(auth, { title: 'x' }, 'c1').catch(wire)).resolves.toEqual(
        wire(CollectionsErrors.PERMISSION_DENIED('write')),
      );
      expect(readOnly.repo.insertCollection).not.toHaveBeenCalled();
      // the permissions are read in the transaction that writes
      expect(readOnly.permissions.find).toHaveBeenCalledWith(auth, ['c1'], EM);
    });
  });

  describe('update', () => {
    it('refuses to move a collection under itself or a descendant (400), changing nothing', async () => {
      const rows = { c1: row(), c3: row({ id: 'c3', parent_id: 'c2' }) };
      const s = setup({ rows, perms: { c1: ALL, c3: ALL }, ancestors: { c3: ['c1', 'c2'] } });
      const invalid = wire(
        CollectionsErrors.INVALID({
          parent_id: 'must not be the collection itself or one of its descendants',
        }),
      );
      await expect(s.service.update(auth, 'c1', { parent_id: 'c3' }).catch(wire)).resolves.toEqual(invalid);
      await expect(s.service.update(auth, 'c1', { parent_id: 'c1' }).catch(wire)).resolves.toEqual(invalid);
      expect(s.repo.updateCollection).not.toHaveBeenCalled();
      expect(s.events.record).not.toHaveBeenCalled();
      // moves of the domain are serialised before the check reads the chain
      expect(s.repo.lockTree).toHaveBeenCalledWith(EM, 'd1');
    });

    it('moves it, rewrites the search document only when the title changed, and records one event', async () => {
      const s = setup({ rows: { c1: row(), p: row({ id: 'p' }) }, perms: { c1: ALL, p: ALL } });
      const out = await s.service.update(auth, 'c1', { parent_id: 'p', title: 'Harbour' });
      expect(s.repo.updateCollection).toHaveBeenCalledWith(EM, 'c1', { parent_id: 'p' });
      expect(s.repo.refreshSearchDocument).not.toHaveBeenCalled();
      expect(out).toMatchObject({ parent_id: 'p', is_root: false });
      expect(s.events.record).toHaveBeenCalledTimes(1);
    });

    it('no change: no write, no event', async () => {
      const s = setup();
      await s.service.update(auth, 'c1', { title: 'Harbour' });
      expect(s.repo.updateCollection).not.toHaveBeenCalled();
      expect(s.events.record).not.toHaveBeenCalled();
    });

    it('a deleted collection is a 404', async () => {
      const s = setup({ rows: { c1: row({ date_deleted: NOW }) } });
      await expect(s.service.update(auth, 'c1', { title: 'x' }).catch(wire)).resolves.toEqual(
        wire(CollectionsErrors.NOT_FOUND()),
      );
    });
  });

  it('remove is soft: status DELETED, date_deleted, deleted_by_user, and a delete event', async () => {
    const s = setup();
    await s.service.remove(auth, 'c1');
    expect(s.repo.updateCollection).toHaveBeenCalledWith(EM, 'c1', {
      status: 'DELETED',
      date_deleted: NOW,
      deleted_by_user: 'u1',
    });
    expectCollectionEvent(s.events, auth, 'c1', 'delete', { status: 'DELETED' });
  });

  it('views drop what the caller cannot read, and parents name only readable ancestors', async () => {
    const rows = { c1: row({ parent_id: 'p2' }), c2: row({ id: 'c2' }) };
    const s = setup({
      rows,
      perms: { c1: ['read'], c2: ['write'], p1: ['read'] },
      ancestors: { c1: ['p1', 'p2'] },
    });
    const out = await s.service.views(EM as never, auth, [rows.c1, rows.c2]);
    expect(out.map((v) => [v.id, v.permissions, v.parents])).toEqual([['c1', ['read'], ['p1']]]);
    await expect(s.service.get(auth, 'c2').catch(wire)).resolves.toEqual(wire(CollectionsErrors.NOT_FOUND()));
  });

  it('views carry each collection’s metadata (field → values) from one query for the page, {} without values', async () => {
    const rows = { c1: row(), c2: row({ id: 'c2' }) };
    const s = setup({ rows, perms: { c1: ['read'], c2: ['read'] } });
    const out = await s.service.views(EM as never, auth, [rows.c1, rows.c2]);
    expect(out.map((v) => [v.id, v.metadata])).toEqual([
      ['c1', { topics: ['sea', 'boats'] }],
      ['c2', {}],
    ]);
    expect(s.repo.metadataOf).toHaveBeenCalledTimes(1);
    expect(s.repo.metadataOf).toHaveBeenCalledWith(EM, ['c1', 'c2']);
  });

  it('refreshSearchDocument rebuilds the document in the caller’s transaction', async () => {
    const s = setup();
    await s.service.refreshSearchDocument(EM as never, 'c1');
    expect(s.repo.refreshSearchDocument).toHaveBeenCalledWith(EM, 'c1');
  });
});
