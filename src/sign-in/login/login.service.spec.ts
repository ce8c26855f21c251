import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import type { UserEntity } from '../../base/model/user.entity.js';
import type { AuditOrigin } from '../../delivery/audit/audit-origin.js';
import type { MarketplaceService } from '../marketplace/marketplace.service.js';
import type { CredentialsService } from './credentials.service.js';
import { LoginService } from './login.service.js';
import type { SignInAuthority } from './sign-in-authority.js';
import type { SignInHook } from './sign-in.service.js';

const EM = { em: 'tx' } as unknown as EntityManager;
const ORIGIN = { requestId: 'r1' } as unknown as AuditOrigin;
const user = { id: 'u1' } as UserEntity;

function setup(verified: UserEntity | null = user) {
  const credentials = { verify: jest.fn(async () => verified) };
  const signIns = {
    signIn: jest.fn(
      async (_u: UserEntity, _m: string, _unauth: unknown, _within?: SignInHook, _o?: AuditOrigin) => ({
        token: 'jwt',
      }),
    ),
  };
  const marketplace = {
    assertUsable: jest.fn(async () => undefined),
    consumeAtSignIn: jest.fn(async () => undefined),
  };
  const service = new LoginService(
    credentials as unknown as CredentialsService,
    signIns as unknown as SignInAuthority,
    marketplace as unknown as MarketplaceService,
  );
  return { service, credentials, signIns, marketplace };
}

/** Runs the sign-in hook the service handed the authority, as the authority would. */
async function runHook(s: ReturnType<typeof setup>, facts: { domainIds: string[]; owed: boolean }) {
  const within = s.signIns.signIn.mock.calls[0][3] as SignInHook;
  await within(EM, facts as Parameters<SignInHook>[1]);
}

describe('LoginService.simpleLogin', () => {
  it('a verified password: the authority signs the user in (method password), no marketplace work', async () => {
    const s = setup();
    await expect(s.service.simpleLogin('a@example.test', 'pw', undefined, ORIGIN)).resolves.toEqual({
      token: 'jwt',
    });
    expect(s.credentials.verify).toHaveBeenCalledWith('a@example.test', 'pw', { origin: ORIGIN });
    expect(s.signIns.signIn).toHaveBeenCalledWith(user, 'password', expect.any(Function), undefined, ORIGIN);
    expect(s.marketplace.assertUsable).not.toHaveBeenCalled();
  });

  it('a refused password (unknown, wrong, inactive: one answer): 401 BAD_CREDENTIALS, no sign-in', async () => {
    const s = setup(null);
    await expect(s.service.simpleLogin('a@example.test', 'pw')).rejects.toMatchObject({ status: 401 });
    expect(s.signIns.signIn).not.toHaveBeenCalled();
  });

  it('a marketplace nonce is checked before the sign-in (an unusable one stops it)', async () => {
    const s = setup();
    s.marketplace.assertUsable.mockRejectedValueOnce(new Error('unusable'));
    await expect(s.service.simpleLogin('a@example.test', 'pw', 'nonce')).rejects.toThrow('unusable');
    expect(s.signIns.signIn).not.toHaveBeenCalled();
  });

  it('the nonce is consumed in the sign-in’s transaction when it yields exactly one domain and no factor is owed', async () => {
    const s = setup();
    await s.service.simpleLogin('a@example.test', 'pw', 'nonce', ORIGIN);
    await runHook(s, { domainIds: ['d1'], owed: false });
    expect(s.marketplace.consumeAtSignIn).toHaveBeenCalledWith(EM, 'nonce', 'u1', 'd1', 'r1');
  });

  it.each([
    ['a factor is owed', { domainIds: ['d1'], owed: true }],
    ['several domains', { domainIds: ['d1', 'd2'], owed: false }],
    ['no domain', { domainIds: [], owed: false }],
  ])('the nonce is left for later when %s', async (_w, facts) => {
    const s = setup();
    await s.service.simpleLogin('a@example.test', 'pw', 'nonce', ORIGIN);
    await runHook(s, facts);
    expect(s.marketplace.consumeAtSignIn).not.toHaveBeenCalled();
  });
});
