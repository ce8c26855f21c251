import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { GuessingDefence } from '../lockout/guessing-defence.js';
import { UserUnlockService } from './user-unlock.service.js';
import type { UsersRepository } from './users.repository.js';

function setup(domains: string[], isSuperAdmin = false) {
  const repo = {
    domainIds: jest.fn(async () => domains),
    findAccount: jest.fn(async () => ({ id: 'u2', is_super_admin: isSuperAdmin })),
  };
  const defence = { unlock: jest.fn(async () => undefined) };
  const service = new UserUnlockService(
    repo as unknown as UsersRepository,
    defence as unknown as GuessingDefence,
  );
  return { service, defence };
}
const caller = (over: Partial<AuthContext> = {}) =>
  ({ systemDomainId: 'd1', isAdmin: true, isSuperAdmin: false, ...over }) as AuthContext;
const code = (c: string) => expect.objectContaining({ code: `users.${c}` });

describe('UserUnlockService', () => {
  it('lets an administrator of the user’s only domain lift the locks', async () => {
    const s = setup(['d1']);
    await s.service.unlock(caller(), 'u2');
    expect(s.defence.unlock).toHaveBeenCalledWith('u2');
  });

  it('refuses, unlocking nothing: another tenant’s user (404), a shared account, a non-administrator, a super administrator', async () => {
    const cases: [ReturnType<typeof setup>, AuthContext, string][] = [
      [setup(['d2']), caller(), 'NOT_FOUND'],
      [setup(['d1', 'd2']), caller(), 'UNLOCK_SHARED_ACCOUNT'],
      [setup(['d1']), caller({ isAdmin: false }), 'UNLOCK_ADMIN_ONLY'],
      [setup(['d1'], true), caller(), 'SUPER_ADMIN_RANK'],
    ];
    for (const [s, auth, c] of cases) {
      await expect(s.service.unlock(auth, 'u2')).rejects.toEqual(code(c));
      expect(s.defence.unlock).not.toHaveBeenCalled();
    }
  });

  it('a super administrator may unlock a shared account', async () => {
    const s = setup(['d1', 'd2'], true);
    await s.service.unlock(caller({ isSuperAdmin: true }), 'u2');
    expect(s.defence.unlock).toHaveBeenCalledWith('u2');
  });
});
