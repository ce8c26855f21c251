import type { AccessRepository } from '../../base/common/auth/access.repository.js';
import { randomUUID } from 'node:crypto';
import { guardContext } from '../../../test/utils/guard-context.js';
import { AccessService } from '../../base/common/auth/access.service.js';
import { ASSET_ACCESS, registerAssetAccess } from './asset-access.js';
import type { AssetPermission } from '../../base/model/asset-acl.entity.js';
import type { AssetPermissionsService } from './asset-permissions.js';

describe('asset access checkers (one per permission)', () => {
  const readOnly = randomUUID();
  const writable = randomUUID();
  const hidden = randomUUID(); // exists, but the caller has no read
  const perms: Record<string, AssetPermission[]> = {
    [readOnly]: ['read'],
    [writable]: ['read', 'write'],
    [hidden]: ['write'],
  };
  const access = new AccessService({} as AccessRepository);
  registerAssetAccess(access, {
    find: async (_auth: unknown, ids: string[]) =>
      ids.filter((id) => perms[id]).map((id) => ({ id, permissions: perms[id] })),
  } as unknown as AssetPermissionsService);
  const auth = guardContext().auth;

  it('registers an entity per permission', () => {
    expect(access.entities()).toEqual(expect.arrayContaining(Object.values(ASSET_ACCESS)));
  });

  it('passes a caller holding the permission', async () => {
    await expect(access.require(auth, ASSET_ACCESS.read, [readOnly])).resolves.toBeUndefined();
    await expect(access.require(auth, ASSET_ACCESS.write, [writable])).resolves.toBeUndefined();
  });

  it('403 when the caller may read but lacks the permission', async () => {
    await expect(access.require(auth, ASSET_ACCESS.write, [readOnly])).rejects.toMatchObject({ status: 403 });
    await expect(access.require(auth, ASSET_ACCESS['change-acl'], [writable])).rejects.toMatchObject({
      status: 403,
    });
  });

  it('404 for what the caller may not read, unknown and malformed ids: nothing is confirmed', async () => {
    for (const [entity, id] of [
      [ASSET_ACCESS.write, hidden],
      [ASSET_ACCESS.read, hidden],
      [ASSET_ACCESS.read, randomUUID()],
      [ASSET_ACCESS.delete, 'nope'],
    ]) {
      await expect(access.require(auth, entity, [id])).rejects.toMatchObject({ status: 404 });
    }
  });
});
