import { jest } from '@jest/globals';
import type { AccessService } from '../../base/common/auth/access.service.js';
import type { AssetAclEntity, AssetPermission } from '../../base/model/asset-acl.entity.js';
import { AclsService, type Principal } from './acls.service.js';
import type { AssetPermissionsService } from './asset-permissions.js';
import { AssetsErrors } from './assets.errors.js';
import type { AssetsRepository } from './assets.repository.js';
import { authContext, repoWithTransaction, wire } from '../../../test/utils/fakes.js';
import { EM, MANAGER, NOW } from '../../../test/utils/fakes/fixtures.js';

const ASSET = 'a1';
const ALL: AssetPermission[] = ['read', 'write', 'delete', 'change-acl'];
const auth = authContext();
const user: Principal = { kind: 'user', id: 'u2' };
const group: Principal = { kind: 'group', id: 'g1' };

const entry = (over: Partial<AssetAclEntity> = {}) =>
  ({
    id: 'e1',
    asset_id: ASSET,
    user_id: 'u2',
    group_id: null,
    permissions: ['read'],
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as AssetAclEntity;

function setup({
  held = ALL as AssetPermission[] | null,
  existing = null as AssetAclEntity | null,
  principal = true,
} = {}) {
  let stored = existing;
  const repo = repoWithTransaction(EM, {
    manager: MANAGER,
    acl: jest.fn(async () => stored),
    lockAcl: jest.fn(async () => stored),
    aclOrFail: jest.fn(async () => stored!),
    insertAcl: jest.fn(async (_em: unknown, e: { permissions: string[] }) => {
      stored = entry({ id: 'new', permissions: e.permissions });
    }),
    setAclPermissions: jest.fn(async (_em: unknown, _id: string, permissions: string[]) => {
      stored = { ...stored!, permissions };
    }),
    deleteAcl: jest.fn(async () => undefined),
    aclsOf: jest.fn(async (): Promise<AssetAclEntity[]> => []),
  });
  const access = {
    require: jest.fn(async () => {
      if (!principal) throw AssetsErrors.NOT_FOUND();
    }),
  };
  const permissions = {
    find: jest.fn(async () => (held ? [{ id: ASSET, permissions: held }] : [])),
  };
  const service = new AclsService(
    repo as unknown as AssetsRepository,
    access as unknown as AccessService,
    permissions as unknown as AssetPermissionsService,
  );
  return { service, repo, access, permissions };
}

describe('AclsService', () => {
  describe('put', () => {
    it('grants only permissions the caller holds, naming the missing ones in canonical order', async () => {
      const s = setup({ held: ['read', 'change-acl'] });
      await expect(
        s.service.put(auth, ASSET, user, ['delete', 'read', 'write']).catch(wire),
      ).resolves.toEqual(wire(AssetsErrors.PERMISSIONS_NOT_HELD(['write', 'delete'])));
      expect(s.repo.insertAcl).not.toHaveBeenCalled();
      expect(s.repo.setAclPermissions).not.toHaveBeenCalled();
    });

    it('does not change an entry that carries permissions the caller lacks, even to narrow it', async () => {
      const s = setup({ held: ['read', 'change-acl'], existing: entry({ permissions: ALL }) });
      await expect(s.service.put(auth, ASSET, user, ['read']).catch(wire)).resolves.toEqual(
        wire(AssetsErrors.PERMISSIONS_NOT_HELD(['write', 'delete'])),
      );
      expect(s.repo.setAclPermissions).not.toHaveBeenCalled();
    });

    it('creates a missing entry with the permissions in canonical order, in one transaction', async () => {
      const s = setup({ held: ['read', 'change-acl'] });
      const out = await s.service.put(auth, ASSET, user, ['read', 'read']);
      expect(out.created).toBe(true);
      expect(s.repo.transaction).toHaveBeenCalledTimes(1);
      // what the caller holds is read in the transaction that writes
      expect(s.permissions.find).toHaveBeenCalledWith(auth, [ASSET], EM);
      expect(s.repo.lockAcl).toHaveBeenCalledWith(EM, { asset_id: ASSET, user_id: 'u2' });
      expect(s.repo.insertAcl).toHaveBeenCalledWith(EM, {
        asset_id: ASSET,
        user_id: 'u2',
        permissions: ['read'],
      });
      expect(out.entry).toMatchObject({
        user_id: 'u2',
        object_type: 'assets',
        object_key: ASSET,
        permissions: ['read'],
      });
    });

    it('replaces an existing entry it holds the permissions of (created: false)', async () => {
      const s = setup({ existing: entry({ permissions: ['read'] }) });
      const out = await s.service.put(auth, ASSET, group, ['write', 'read']);
      expect(out.created).toBe(false);
      expect(s.repo.setAclPermissions).toHaveBeenCalledWith(EM, 'e1', ['read', 'write']);
      expect(s.repo.insertAcl).not.toHaveBeenCalled();
      expect(out.entry).toMatchObject({ group_id: 'g1', permissions: ['read', 'write'] });
      expect(out.entry).not.toHaveProperty('user_id');
    });

    it('a principal not of the caller’s domain stops it before any write', async () => {
      const s = setup({ principal: false });
      await expect(s.service.put(auth, ASSET, user, ['read']).catch(wire)).resolves.toEqual(
        wire(AssetsErrors.NOT_FOUND()),
      );
      expect(s.access.require).toHaveBeenCalledWith(auth, 'user', ['u2']);
      expect(s.repo.transaction).not.toHaveBeenCalled();
    });

    it('an asset the caller cannot see (deleted meanwhile) is a 404', async () => {
      const s = setup({ held: null });
      await expect(s.service.put(auth, ASSET, user, ['read']).catch(wire)).resolves.toEqual(
        wire(AssetsErrors.NOT_FOUND()),
      );
      expect(s.repo.insertAcl).not.toHaveBeenCalled();
    });
  });

  describe('remove', () => {
    it('a missing entry is ACL_NOT_FOUND', async () => {
      const s = setup();
      await expect(s.service.remove(auth, ASSET, user).catch(wire)).resolves.toEqual(
        wire(AssetsErrors.ACL_NOT_FOUND()),
      );
      expect(s.repo.deleteAcl).not.toHaveBeenCalled();
    });

    it('does not remove an entry carrying permissions the caller lacks', async () => {
      const s = setup({ held: ['read', 'change-acl'], existing: entry({ permissions: ['read', 'write'] }) });
      await expect(s.service.remove(auth, ASSET, user).catch(wire)).resolves.toEqual(
        wire(AssetsErrors.PERMISSIONS_NOT_HELD(['write'])),
      );
      expect(s.repo.deleteAcl).not.toHaveBeenCalled();
    });

    it('removes an entry it holds, locked in the transaction', async () => {
      const s = setup({ held: ['read', 'change-acl'], existing: entry({ permissions: ['read'] }) });
      await s.service.remove(auth, ASSET, user);
      expect(s.repo.lockAcl).toHaveBeenCalledWith(EM, { asset_id: ASSET, user_id: 'u2' });
      expect(s.repo.deleteAcl).toHaveBeenCalledWith(EM, 'e1');
    });
  });

  describe('reads', () => {
    it('get: the entry of a known principal, or ACL_NOT_FOUND', async () => {
      await expect(setup().service.get(auth, ASSET, user).catch(wire)).resolves.toEqual(
        wire(AssetsErrors.ACL_NOT_FOUND()),
      );
      const s = setup({ existing: entry({ permissions: ['write', 'read'] }) });
      expect(await s.service.get(auth, ASSET, user)).toMatchObject({
        user_id: 'u2',
        permissions: ['read', 'write'],
      });
      expect(s.repo.acl).toHaveBeenCalledWith(MANAGER, { asset_id: ASSET, user_id: 'u2' });
      const denied = setup({ principal: false });
      await expect(denied.service.get(auth, ASSET, user).catch(wire)).resolves.toEqual(
        wire(AssetsErrors.NOT_FOUND()),
      );
      expect(denied.repo.acl).not.toHaveBeenCalled();
    });

    it('list: users and groups apart, each in canonical order, no inherited entries', async () => {
      const s = setup();
      s.repo.aclsOf.mockResolvedValue([
        entry({ user_id: 'u2', permissions: ['change-acl', 'read'] }),
        entry({ id: 'e2', user_id: null, group_id: 'g1', permissions: ['write', 'read'] }),
      ]);
      expect(await s.service.list(ASSET)).toEqual({
        users_acl: [{ user_id: 'u2', permissions: ['read', 'change-acl'] }],
        groups_acl: [{ group_id: 'g1', permissions: ['read', 'write'] }],
        inherited_users_acl: [],
        inherited_groups_acl: [],
        propagating_users_acl: [],
        propagating_groups_acl: [],
      });
    });

    it('mine: the caller’s permissions, or a 404 for an asset they cannot see', async () => {
      expect(await setup({ held: ['read'] }).service.mine(auth, ASSET)).toEqual({ permissions: ['read'] });
      await expect(setup({ held: null }).service.mine(auth, ASSET).catch(wire)).resolves.toEqual(
        wire(AssetsErrors.NOT_FOUND()),
      );
    });
  });
});
