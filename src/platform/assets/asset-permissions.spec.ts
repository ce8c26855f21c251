import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { AssetPermissionsService } from './asset-permissions.js';
import type { AssetsRepository } from './assets.repository.js';
import { EM, MANAGER } from '../../../test/utils/fakes/fixtures.js';

const auth = (over: Partial<AuthContext> = {}) =>
  ({ userId: 'u1', systemDomainId: 'd1', isAdmin: false, isSuperAdmin: false, ...over }) as AuthContext;

function setup() {
  const repo = {
    manager: MANAGER,
    liveIdsInDomain: jest.fn(async () => ['a1']),
    aclPermissions: jest.fn(async () => [
      { id: 'a1', permissions: ['change-acl', 'read', 'write'] },
      { id: 'a2', permissions: ['write'] },
      { id: 'a3', permissions: null },
    ]),
  };
  return { service: new AssetPermissionsService(repo as unknown as AssetsRepository), repo };
}

describe('AssetPermissionsService', () => {
  it('a user: the ACL’s permissions in canonical order (none for an asset without an entry)', async () => {
    const s = setup();
    expect(await s.service.find(auth(), ['a1', 'a2', 'a3'])).toEqual([
      { id: 'a1', permissions: ['read', 'write', 'change-acl'] },
      { id: 'a2', permissions: ['write'] },
      { id: 'a3', permissions: [] },
    ]);
    expect(s.repo.aclPermissions).toHaveBeenCalledWith(MANAGER, ['a1', 'a2', 'a3'], 'd1', 'u1');
    expect(s.repo.liveIdsInDomain).not.toHaveBeenCalled();
  });

  it('a domain or super administrator holds every permission on the live assets of the domain', async () => {
    for (const who of [{ isAdmin: true }, { isSuperAdmin: true }]) {
      const s = setup();
      expect(await s.service.find(auth(who), ['a1', 'gone'], EM as never)).toEqual([
        { id: 'a1', permissions: ['read', 'write', 'delete', 'change-acl'] },
      ]);
      expect(s.repo.liveIdsInDomain).toHaveBeenCalledWith(EM, ['a1', 'gone'], 'd1');
      expect(s.repo.aclPermissions).not.toHaveBeenCalled();
    }
  });

  it('readable: only the assets the caller may read; no ids, no statement', async () => {
    const s = setup();
    expect(await s.service.readable(auth(), ['a1', 'a2', 'a3'], EM as never)).toEqual(
      new Map([['a1', ['read', 'write', 'change-acl']]]),
    );
    expect(s.repo.aclPermissions).toHaveBeenCalledWith(EM, expect.anything(), 'd1', 'u1');
    const none = setup();
    expect(await none.service.find(auth(), [])).toEqual([]);
    expect(none.repo.aclPermissions).not.toHaveBeenCalled();
  });
});
