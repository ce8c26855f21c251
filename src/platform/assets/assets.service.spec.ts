import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AssetPermission } from '../../base/model/asset-acl.entity.js';
import type { AssetEntity, AssetVersionEntity } from '../../base/model/asset.entity.js';
import { AssetsErrors } from './assets.errors.js';
import type { PageRow } from './assets.repository.js';
import { AssetsService } from './assets.service.js';
import {
  fixedClock,
  memberContext,
  recordingEvents,
  repoWithTransaction,
  wire,
} from '../../../test/utils/fakes.js';
import { EM, MANAGER, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { expectEvent } from '../../../test/utils/fakes/expect.js';
import { assetRow as asset, NEW_ASSET } from '../../../test/utils/fakes/assets.js';

const ALL: AssetPermission[] = ['read', 'write', 'delete', 'change-acl'];
const auth = (over: Partial<AuthContext> = {}) => memberContext(over);

const version = (over: Partial<AssetVersionEntity> = {}) =>
  ({ id: 'v1', asset_id: 'a1', status: 'ACTIVE', date_created: NOW, ...over }) as AssetVersionEntity;

function setup({ stored = asset() as AssetEntity | null, readable = ALL as AssetPermission[] | null } = {}) {
  let row = stored;
  const repo = repoWithTransaction(EM, {
    manager: MANAGER,
    insertAsset: jest.fn(async (_em: unknown, fields: Partial<AssetEntity>) => {
      row = asset({ ...fields, id: 'a1', current_version_id: null });
      return row;
    }),
    insertVersion: jest.fn(async (_em: unknown, fields: Partial<AssetVersionEntity>) => version(fields)),
    updateAsset: jest.fn(async (_em: unknown, _id: string, changes: Partial<AssetEntity>) => {
      row = { ...row!, ...changes };
    }),
    insertAcl: jest.fn(async () => undefined),
    refreshSearchDocument: jest.fn(async () => undefined),
    inDomain: jest.fn(async () => row),
    lockInDomain: jest.fn(async () => row),
    assetOrFail: jest.fn(async () => row!),
    versionsOf: jest.fn(async (): Promise<AssetVersionEntity[]> => [version()]),
    pageRows: jest.fn(async (): Promise<PageRow[]> => []),
  });
  const permissions = {
    readable: jest.fn(async (_a: AuthContext, ids: string[]) =>
      readable ? new Map(ids.map((id) => [id, readable])) : new Map(),
    ),
  };
  const events = recordingEvents();
  const collections = { containing: jest.fn(async () => new Map([['a2', ['c1']]])) };
  const service = construct(AssetsService, repo, permissions, events, fixedClock(NOW), collections);
  return { service, repo, permissions, events, collections };
}

describe('AssetsService', () => {
  describe('create', () => {
    it('writes the asset, its first version, the creator’s full ACL entry, the search document and the event in one transaction', async () => {
      const s = setup();
      const out = await s.service.create(auth(), { title: 'Harbour', external_id: 'ext-1' });
      expect(s.repo.transaction).toHaveBeenCalledTimes(1);
      expect(s.repo.insertAsset).toHaveBeenCalledWith(EM, {
        system_domain_id: 'd1',
        title: 'Harbour',
        ...NEW_ASSET,
        external_id: 'ext-1',
        created_by_user: 'u1',
      });
      expect(s.repo.insertVersion).toHaveBeenCalledWith(EM, {
        asset_id: 'a1',
        analyze_status: 'N/A',
        archive_status: 'NOT_ARCHIVED',
        is_online: true,
        created_by_user: 'u1',
      });
      expect(s.repo.updateAsset).toHaveBeenCalledWith(EM, 'a1', { current_version_id: 'v1' });
      expect(s.repo.insertAcl).toHaveBeenCalledWith(EM, { asset_id: 'a1', user_id: 'u1', permissions: ALL });
      expect(s.repo.refreshSearchDocument).toHaveBeenCalledWith(EM, 'a1');
      expect(out).toMatchObject({ id: 'a1', permissions: ALL, versions_number: 1 });
      // the event is the asset, not the caller's permissions on it
      expectEvent(s.events, EM, { objectId: 'a1', realm: 'asset', operation: 'create', eventType: 'assets' });
      const [, event] = s.events.record.mock.calls[0] as unknown as [unknown, { data: object }];
      expect(event.data).toMatchObject({ id: 'a1', title: 'Harbour' });
      expect(event.data).not.toHaveProperty('permissions');
    });
  });

  describe('update', () => {
    it('a body that changes nothing writes nothing and tells nobody', async () => {
      const s = setup();
      await s.service.update(auth(), 'a1', { title: 'Harbour', type: 'ASSET' });
      expect(s.repo.lockInDomain).toHaveBeenCalledWith(EM, 'a1', 'd1');
      expect(s.repo.updateAsset).not.toHaveBeenCalled();
      expect(s.events.record).not.toHaveBeenCalled();
    });

    it('a new title rebuilds the search document; other fields do not', async () => {
      const s = setup();
      await s.service.update(auth(), 'a1', { title: 'Sunset', type: 'ASSET' });
      expect(s.repo.updateAsset).toHaveBeenCalledWith(EM, 'a1', { title: 'Sunset' });
      expect(s.repo.refreshSearchDocument).toHaveBeenCalledWith(EM, 'a1');
      expectEvent(s.events, EM, { operation: 'update' });
      const other = setup();
      await other.service.update(auth(), 'a1', { status: 'ARCHIVED' } as never);
      expect(other.repo.updateAsset).toHaveBeenCalledWith(EM, 'a1', { status: 'ARCHIVED' });
      expect(other.repo.refreshSearchDocument).not.toHaveBeenCalled();
    });

    it('a deleted asset or one of another domain is not found', async () => {
      for (const stored of [asset({ date_deleted: NOW }), null]) {
        const s = setup({ stored });
        await expect(s.service.update(auth(), 'a1', { title: 'x' }).catch(wire)).resolves.toEqual(
          wire(AssetsErrors.NOT_FOUND()),
        );
        expect(s.repo.updateAsset).not.toHaveBeenCalled();
      }
    });
  });

  describe('remove', () => {
    it('is soft: status DELETED, the date and who, and the delete event in the same transaction', async () => {
      const s = setup();
      await s.service.remove(auth(), 'a1');
      expect(s.repo.lockInDomain).toHaveBeenCalledWith(EM, 'a1', 'd1');
      expect(s.repo.updateAsset).toHaveBeenCalledWith(EM, 'a1', {
        status: 'DELETED',
        date_deleted: NOW,
        deleted_by_user: 'u1',
      });
      expectEvent(s.events, EM, { objectId: 'a1', operation: 'delete', realm: 'asset' });
      const [, event] = s.events.record.mock.calls[0] as unknown as [unknown, { data: object }];
      expect(event.data).toMatchObject({ status: 'DELETED', deleted_by_user: 'u1', versions_number: 1 });
      expect(event.data).not.toHaveProperty('permissions');
    });

    it('an asset already deleted is not found (and not deleted again)', async () => {
      const s = setup({ stored: asset({ date_deleted: NOW }) });
      await expect(s.service.remove(auth(), 'a1').catch(wire)).resolves.toEqual(
        wire(AssetsErrors.NOT_FOUND()),
      );
      expect(s.repo.updateAsset).not.toHaveBeenCalled();
      expect(s.events.record).not.toHaveBeenCalled();
    });
  });

  describe('reads', () => {
    it('get: a deleted asset, another domain’s or one the ACL hides is not found', async () => {
      for (const o of [{ stored: asset({ date_deleted: NOW }) }, { stored: null }, { readable: null }]) {
        await expect(setup(o).service.get(auth(), 'a1').catch(wire)).resolves.toEqual(
          wire(AssetsErrors.NOT_FOUND()),
        );
      }
      const s = setup({ readable: ['read'] });
      expect(await s.service.get(auth(), 'a1')).toMatchObject({ id: 'a1', permissions: ['read'] });
      expect(s.repo.inDomain).toHaveBeenCalledWith(MANAGER, 'a1', 'd1');
    });

    it('views: unreadable assets are dropped; each keeps its own versions and permissions', async () => {
      const s = setup();
      s.permissions.readable.mockResolvedValue(new Map([['a2', ['read', 'write'] as AssetPermission[]]]));
      s.repo.versionsOf.mockResolvedValue([
        version({ asset_id: 'a1' }),
        version({ id: 'v2', asset_id: 'a2' }),
      ]);
      const out = await s.service.views(EM as never, auth(), [asset(), asset({ id: 'a2' })]);
      expect(out.map((v) => [v.id, v.permissions, v.versions.map((x) => x.id), v.in_collections])).toEqual([
        ['a2', ['read', 'write'], ['v2'], ['c1']],
      ]);
      // in_collections: asked only for the readable ones, under the caller's collection ACL
      expect(s.collections.containing).toHaveBeenCalledWith(EM, expect.anything(), 'asset', ['a2']);
      expect(s.permissions.readable).toHaveBeenCalledWith(expect.anything(), ['a1', 'a2'], EM);
    });

    it('readablePage: rows without read are left out; an administrator holds every permission', async () => {
      const row = (id: string, permissions: string[] | null) =>
        ({ ...asset({ id }), permissions, versions: [], metadata: null, in_collections: null }) as PageRow;
      const s = setup();
      s.repo.pageRows.mockResolvedValue([
        row('a1', ['write', 'read']),
        row('a2', ['write']),
        row('a3', null),
      ]);
      const page = await s.service.readablePage(auth(), ['a1', 'a2', 'a3']);
      expect([...page.keys()]).toEqual(['a1']);
      expect(page.get('a1')).toMatchObject({ view: { permissions: ['read', 'write'] }, metadata: {} });
      expect(s.repo.pageRows).toHaveBeenCalledWith(MANAGER, expect.anything(), ['a1', 'a2', 'a3'], false);

      const admin = setup();
      admin.repo.pageRows.mockResolvedValue([row('a1', null)]);
      const all = await admin.service.readablePage(auth({ isAdmin: true }), ['a1']);
      expect(all.get('a1')!.view.permissions).toEqual(ALL);
      expect(admin.repo.pageRows).toHaveBeenCalledWith(MANAGER, expect.anything(), ['a1'], true);
    });

    it('readablePage: no ids, no statement', async () => {
      const s = setup();
      expect((await s.service.readablePage(auth(), [])).size).toBe(0);
      expect(s.repo.pageRows).not.toHaveBeenCalled();
    });
  });
});
