import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import type { UserEntity } from '../../base/model/user.entity.js';
import type { AuditOrigin } from '../../delivery/audit/audit-origin.js';
import type { LiveMembership } from './login.repository.js';
import { LoginService } from './login.service.js';
import type { SignInHook } from './sign-in.service.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const EM = { em: 'tx' } as unknown as EntityManager;
const ORIGIN = { requestId: 'r1' } as unknown as AuditOrigin;
const user = { id: 'u1' } as UserEntity;
const MEMBERSHIPS = [{ domain: { id: 'd1' } }] as unknown as LiveMembership[];
/** What the authority gets besides the user: the memberships read with the account, the count to clear. */
const READ = { memberships: MEMBERSHIPS, clearFactor: 'password' };

function setup(verified: UserEntity | null = user) {
  const credentials = {
    verifyForSignIn: jest.fn(async () => (verified ? { user: verified, memberships: MEMBERSHIPS } : null)),
  };
  const signIns = {
    signIn: jest.fn(
      async (
        _u: UserEntity,
        _m: string,
        _unauth: unknown,
        _within?: SignInHook,
        _o?: AuditOrigin,
        _read?: unknown,
      ) => ({
        token: 'jwt',
      }),
    ),
  };
  const defence = { forget: jest.fn(async () => undefined) };
  const marketplace = {
    assertUsable: jest.fn(async () => undefined),
    consumeAtSignIn: jest.fn(async () => undefined),
  };
  const service = construct(LoginService, credentials, signIns, marketplace, defence);
  return { service, credentials, signIns, marketplace, defence };
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
    expect(s.credentials.verifyForSignIn).toHaveBeenCalledWith('a@example.test', 'pw', ORIGIN);
    expect(s.signIns.signIn).toHaveBeenCalledWith(
      user,
      'password',
      expect.any(Function),
      undefined,
      ORIGIN,
      READ,
    );
    expect(s.marketplace.assertUsable).not.toHaveBeenCalled();
    // the count's clear rides on the sign-in's token statement: nothing forgotten here
    expect(s.defence.forget).not.toHaveBeenCalled();
  });

  it('a refused password (unknown, wrong, inactive: one answer): 401 BAD_CREDENTIALS, no sign-in', async () => {
    const s = setup(null);
    await expect(s.service.simpleLogin('a@example.test', 'pw')).rejects.toMatchObject({ status: 401 });
    expect(s.signIns.signIn).not.toHaveBeenCalled();
    expect(s.defence.forget).not.toHaveBeenCalled();
  });

  it('a marketplace nonce is checked before the sign-in (an unusable one stops it)', async () => {
    const s = setup();
    s.marketplace.assertUsable.mockRejectedValueOnce(new Error('unusable'));
    await expect(s.service.simpleLogin('a@example.test', 'pw', 'nonce')).rejects.toThrow('unusable');
    expect(s.signIns.signIn).not.toHaveBeenCalled();
    // the password was right: its count is forgotten although no token statement ran
    expect(s.defence.forget).toHaveBeenCalledWith('u1', 'password');
  });

  it('a sign-in refused after the right password (no live domain) forgets the count, then answers the refusal', async () => {
    const s = setup();
    s.signIns.signIn.mockRejectedValueOnce(new Error('no domain'));
    await expect(s.service.simpleLogin('a@example.test', 'pw')).rejects.toThrow('no domain');
    expect(s.defence.forget).toHaveBeenCalledWith('u1', 'password');
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
