import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { MfaMethod } from '../login/mfa-policy.js';
import { MfaService } from './mfa.service.js';
import { fixedClock, repoWithTransaction } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const domain = (over: Partial<SystemDomainEntity> = {}) =>
  ({ id: 'd1', mfa_required: false, mfa_methods: ['TOTP', 'MAIL_2SV'], ...over }) as SystemDomainEntity;

function setup(configured: MfaMethod[] = ['TOTP']) {
  const repo = repoWithTransaction(EM, {
    configuredMethods: jest.fn(async () => configured),
    liveMemberDomain: jest.fn(async (): Promise<SystemDomainEntity | null> => domain()),
    touchLastLogin: jest.fn(async () => undefined),
    markEmailVerified: jest.fn(async (..._a: unknown[]) => undefined),
  });
  const codes = { consume: jest.fn(async () => true), sendMailCode: jest.fn(async () => undefined) };
  const guessing = {
    attempt: jest.fn(
      async (_u: string, _f: string, verify: () => Promise<boolean>): Promise<'ok' | 'wrong' | 'locked'> =>
        (await verify()) ? 'ok' : 'wrong',
    ),
  };
  const signIns = {
    completeSecondFactor: jest.fn(async () => ({ token: 'jwt', record: { id: 't2' } })),
    pendingSession: jest.fn(async () => 'temp-jwt'),
  };
  const tokens = { revoke: jest.fn(async () => true), isDomainAdmin: jest.fn(async () => false) };
  const marketplace = {
    assertUsable: jest.fn(async () => undefined),
    consumeAtSignIn: jest.fn(async () => undefined),
  };
  const service = construct(MfaService, repo, codes, fixedClock(NOW), guessing, signIns, tokens, marketplace);
  return { service, repo, codes, guessing, signIns, tokens, marketplace };
}

const temp = (over: Partial<AuthContext> = {}) =>
  ({
    kind: 'TEMP',
    userId: 'u1',
    tokenId: 't1',
    requestId: 'r1',
    user: { email: 'A@Example.test' },
    record: { vouched_by_tenant: false },
    rightsCap: null,
    ...over,
  }) as AuthContext;

const BAD = expect.objectContaining({ status: 401, code: 'mfa.BAD_SECOND_FACTOR' });

/** The temporary token's sign-in completed in d1 with the authenticator app's code 123456 (and `within`). */
const withTotp = (s: ReturnType<typeof setup>, within?: Parameters<MfaService['completeWithCode']>[5]) =>
  s.service.completeWithCode(temp(), 'd1', ['TOTP'], 'TOTP', '123456', within);

describe('MfaService (the sign-in that owes a factor)', () => {
  it('completes with a good code: uses up the temporary token and issues the domain token with the factor', async () => {
    const s = setup();
    const out = await s.service.completeWithCode(
      temp(),
      'd1',
      ['TOTP', 'RECOVERY'],
      'RECOVERY',
      'abcdef0123456789',
    );
    expect(out).toEqual({ token: 'jwt', record: { id: 't2' } });
    expect(s.guessing.attempt).toHaveBeenCalledWith(
      'u1',
      'recovery',
      expect.any(Function),
      expect.anything(),
    );
    expect(s.codes.consume).toHaveBeenCalledWith('u1', 'RECOVERY', 'abcdef0123456789');
    expect(s.tokens.revoke).toHaveBeenCalledWith('t1', { em: EM, requestId: 'r1' });
    // the completion keeps what the temporary token was: a service sign-in here (no tenant's mark, no ceiling)
    expect(s.signIns.completeSecondFactor).toHaveBeenCalledWith(
      EM,
      { userId: 'u1', domainId: 'd1' },
      { vouchedByTenant: false, rightsCap: null },
      expect.anything(),
    );
    expect(s.repo.touchLastLogin).toHaveBeenCalledWith(EM, 'u1', expect.any(Date));
    // a recovery code (or an authenticator's) proves nothing about the mailbox
    expect(s.repo.markEmailVerified).not.toHaveBeenCalled();
  });

  it('a sign-in a tenant’s directory began stays the tenant’s: its mark and ceiling carry to the session', async () => {
    const s = setup();
    const pending = temp({
      record: { vouched_by_tenant: true } as AuthContext['record'],
      rightsCap: ['admin'],
    });
    await s.service.completeWithCode(pending, 'd1', ['MAIL_2SV'], null, '123456');
    expect(s.signIns.completeSecondFactor).toHaveBeenCalledWith(
      EM,
      { userId: 'u1', domainId: 'd1' },
      { vouchedByTenant: true, rightsCap: ['admin'] },
      expect.anything(),
    );
  });

  it('defaults to the first accepted type; a mailed code used proves the address, in the same transaction', async () => {
    const s = setup();
    await s.service.completeWithCode(temp(), 'd1', ['MAIL_2SV'], null, '123456');
    expect(s.codes.consume).toHaveBeenCalledWith('u1', 'MAIL_2SV', '123456');
    expect(s.repo.markEmailVerified).toHaveBeenCalledWith(EM, 'u1', 'A@Example.test');
  });

  it('a wrong or expired mailed code proves nothing', async () => {
    const s = setup();
    s.codes.consume.mockResolvedValueOnce(false);
    await expect(s.service.completeWithCode(temp(), 'd1', ['MAIL_2SV'], null, '123456')).rejects.toEqual(BAD);
    expect(s.repo.markEmailVerified).not.toHaveBeenCalled();
  });

  it.each([
    ['a login token instead of the temporary one', temp({ kind: 'LOGIN' }), ['TOTP'], 'TOTP', '123456'],
    ['a type the domain does not accept', temp(), ['MAIL_2SV'], 'TOTP', '123456'],
    ['no accepted type at all', temp(), [], null, '123456'],
    ['a malformed code', temp(), ['TOTP'], 'TOTP', '12345x'],
    ['no code', temp(), ['TOTP'], 'TOTP', null],
  ] as const)(
    'refuses %s without counting a guess or changing anything',
    async (_n, auth, accepted, type, otp) => {
      const s = setup();
      await expect(s.service.completeWithCode(auth, 'd1', [...accepted], type, otp)).rejects.toEqual(BAD);
      expect(s.guessing.attempt).not.toHaveBeenCalled();
      expect(s.repo.transaction).not.toHaveBeenCalled();
    },
  );

  it('refuses a wrong code, and a locked account, before touching the temporary token', async () => {
    const s = setup();
    s.codes.consume.mockResolvedValueOnce(false);
    await expect(withTotp(s)).rejects.toEqual(BAD);
    s.guessing.attempt.mockResolvedValueOnce('locked');
    await expect(withTotp(s)).rejects.toEqual(BAD);
    expect(s.tokens.revoke).not.toHaveBeenCalled();
    expect(s.signIns.completeSecondFactor).not.toHaveBeenCalled();
  });

  it('refuses a replayed temporary token (already revoked): no second domain token', async () => {
    const s = setup();
    s.tokens.revoke.mockResolvedValueOnce(false);
    await expect(withTotp(s)).rejects.toEqual(BAD);
    expect(s.signIns.completeSecondFactor).not.toHaveBeenCalled();
  });

  it('runs the extra work inside the same transaction', async () => {
    const s = setup();
    const within = jest.fn(async () => undefined);
    await withTotp(s, within);
    expect(within).toHaveBeenCalledWith(EM);
  });

  it('owedFor: a factor once configured or required; none otherwise', async () => {
    expect(await setup(['TOTP']).service.owedFor('u1', domain())).toEqual(['TOTP', 'RECOVERY']);
    expect(await setup([]).service.owedFor('u1', domain())).toBeNull();
    expect(await setup([]).service.owedFor('u1', domain({ mfa_required: true }))).toEqual(['MAIL_2SV']);
    expect(
      await setup([]).service.owedFor('u1', domain({ mfa_required: true, mfa_methods: ['TOTP'] })),
    ).toEqual([]);
  });

  it('mails a sign-in code only for a member domain that accepts mailed codes, to the caller’s own address', async () => {
    const s = setup(['MAIL_2SV']);
    await s.service.generateForSignIn(temp(), { email: ' a@example.TEST ', system_domain_id: 'd1' } as never);
    expect(s.repo.liveMemberDomain).toHaveBeenCalledWith('u1', 'd1');
    expect(s.codes.sendMailCode).toHaveBeenCalledWith('u1', 'A@Example.test');

    await expect(
      s.service.generateForSignIn(temp(), { email: 'other@example.test', system_domain_id: 'd1' } as never),
    ).rejects.toEqual(BAD);
    s.repo.liveMemberDomain.mockResolvedValueOnce(null);
    await expect(
      s.service.generateForSignIn(temp(), { email: 'a@example.test', system_domain_id: 'd2' } as never),
    ).rejects.toEqual(BAD);
    const totpOnly = setup(['TOTP']);
    await expect(
      totpOnly.service.generateForSignIn(temp(), {
        email: 'a@example.test',
        system_domain_id: 'd1',
      } as never),
    ).rejects.toEqual(BAD);
    expect(s.codes.sendMailCode).toHaveBeenCalledTimes(1);
    expect(totpOnly.codes.sendMailCode).not.toHaveBeenCalled();
  });

  it('multidomainLogin: refuses an unusable marketplace nonce before checking any code', async () => {
    const s = setup();
    s.marketplace.assertUsable.mockRejectedValueOnce(new Error('unusable'));
    await expect(
      s.service.multidomainLogin(temp(), {
        email: 'a@example.test',
        system_domain_id: 'd1',
        otp_type: 'TOTP',
        otp: '123456',
        marketplace_signup_nonce: 'n',
      } as never),
    ).rejects.toThrow('unusable');
    expect(s.guessing.attempt).not.toHaveBeenCalled();
  });

  it('issues the temporary token through the sign-in authority', async () => {
    const s = setup();
    expect(await s.service.issueTemp('u1', 'd1')).toBe('temp-jwt');
    expect(s.signIns.pendingSession).toHaveBeenCalledWith('u1', 'd1');
  });
});
