import { jest } from '@jest/globals';
import type { EntityManager } from 'typeorm';
import { DOMAIN_ADMIN_CAP } from '../../base/common/auth/rights.js';
import type { Clock } from '../../base/common/clock.js';
import { ApiError } from '../../base/common/errors/api-error.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import type { MfaMethod } from './mfa-policy.js';
import {
  SignInAuthority,
  SignInRefusal,
  type TenantAssertion,
  type TenantAuthenticator,
} from './sign-in-authority.js';
import type { AccountFacts } from './sign-in-authority.repository.js';
import { recordingEvents, repoWithTransaction } from '../../../test/utils/fakes.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { expectEvent } from '../../../test/utils/fakes/expect.js';

/** The transaction's manager: lockDomain runs its row lock through `query`. */
const query = jest.fn(async (..._a: unknown[]): Promise<unknown> => []);
const EM = { query, connection: {} } as unknown as EntityManager;
const MANAGER = { manager: true } as unknown as EntityManager;
const BY: TenantAuthenticator = { kind: 'saml', id: 'idp1', systemDomainId: 'd1' };
const user = (over: Partial<UserEntity> = {}) =>
  ({ id: 'u1', email: 'a@tenant.example', status: 'ACTIVE', is_super_admin: false, ...over }) as UserEntity;
const facts = (over: Partial<AccountFacts> = {}): AccountFacts => ({
  user: user(),
  member: true,
  otherDomains: 0,
  ...over,
});
const assertion = (over: Partial<TenantAssertion> = {}): TenantAssertion => ({
  by: BY,
  email: ' A@Tenant.example ',
  firstName: 'A',
  lastName: 'B',
  link: null,
  emailDomainVerified: true,
  provision: false,
  requestId: 'r1',
  ...over,
});

const NO_ACCOUNT = 'no account' as const;
const CREATED = new Date('2026-05-01T12:00:00Z');

function setup(found: AccountFacts | typeof NO_ACCOUNT = facts(), configured: MfaMethod[] = []) {
  const repo = repoWithTransaction(EM, {
    manager: MANAGER,
    accountFacts: jest.fn(async () => (found === NO_ACCOUNT ? undefined : found)),
    configuredMethods: jest.fn(async () => configured),
    insertOwnedAccount: jest.fn(async () =>
      user({ id: 'new', date_created: CREATED, date_modified: CREATED, last_login: null }),
    ),
  });
  const issuing = {
    signIn: jest.fn(async () => ({ token: 'jwt' })),
    domainToken: jest.fn(async () => ({ token: 'jwt' })),
    tempToken: jest.fn(async () => ({ token: 'temp' })),
    signInToDomain: jest.fn(async () => ({ token: 'jwt' })),
  };
  const events = recordingEvents();
  const authority = construct(SignInAuthority, issuing, repo, events, {
    now: () => new Date('2026-05-01T12:00:00Z'),
  } as Clock);
  return { authority, repo, issuing, events };
}

const refusedFor = async (p: Promise<unknown>, reason: RegExp) => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(SignInRefusal);
  expect((e as Error).message).toMatch(reason);
};

describe('SignInAuthority.vouch (whom a tenant’s authenticator may name)', () => {
  it('an account the tenant owns, by its verified email: vouched, owned; read under the domain’s lock', async () => {
    const s = setup();
    await expect(s.authority.vouch(assertion())).resolves.toEqual({ userId: 'u1', owned: true });
    expect(s.repo.transaction).toHaveBeenCalledTimes(1);
    expect(query).toHaveBeenCalledWith(expect.stringContaining('FOR NO KEY UPDATE'), ['d1']);
    expect(s.repo.accountFacts).toHaveBeenCalledWith(EM, { email: 'a@tenant.example' }, 'd1');
  });

  it('an email whose domain is not verified for the authenticator: refused, nothing read', async () => {
    const s = setup();
    await refusedFor(s.authority.vouch(assertion({ emailDomainVerified: false })), /not verified/);
    expect(s.repo.accountFacts).not.toHaveBeenCalled();
  });

  it.each([
    ['a member of other domains', facts({ otherDomains: 1 })],
    ['a super administrator', facts({ user: user({ is_super_admin: true }) })],
  ])('%s, by email: refused (only the person’s own link lets it in)', async (_w, f) => {
    await refusedFor(setup(f).authority.vouch(assertion()), /not this domain’s alone/);
  });

  it('an account not owned, linked by its person: vouched, not owned (its session gets a ceiling)', async () => {
    const s = setup(facts({ otherDomains: 2 }));
    const out = await s.authority.vouch(assertion({ link: { userId: 'u1', bySelf: true } }));
    expect(out).toEqual({ userId: 'u1', owned: false });
    expect(s.repo.accountFacts).toHaveBeenCalledWith(EM, { id: 'u1' }, 'd1');
  });

  it('a link an administrator made to an account not owned: refused', async () => {
    const s = setup(facts({ otherDomains: 1 }));
    await refusedFor(
      s.authority.vouch(assertion({ link: { userId: 'u1', bySelf: false } })),
      /not this domain’s/,
    );
  });

  it.each([
    ['not a member of the domain', facts({ member: false }), /not a member/],
    ['inactive', facts({ user: user({ status: 'INACTIVE' }) }), /not active/],
    ['gone (linked)', NO_ACCOUNT, /linked user no longer exists/],
  ])('an account %s: refused', async (_w, f, reason) => {
    await refusedFor(setup(f).authority.vouch(assertion({ link: { userId: 'u1', bySelf: true } })), reason);
  });

  it('an unknown email without just-in-time provisioning: refused, no account made', async () => {
    const s = setup(NO_ACCOUNT);
    await refusedFor(s.authority.vouch(assertion()), /provisioning is off/);
    expect(s.repo.insertOwnedAccount).not.toHaveBeenCalled();
  });

  it('an unknown email with provisioning: a new account of the domain alone, its event in the same transaction', async () => {
    const s = setup(NO_ACCOUNT);
    // the domain's lock and its seat limits (none) read through the transaction's manager
    query.mockResolvedValue([]);
    await expect(s.authority.vouch(assertion({ provision: true }))).resolves.toEqual({
      userId: 'new',
      owned: true,
    });
    expect(s.repo.insertOwnedAccount).toHaveBeenCalledWith(EM, {
      email: 'a@tenant.example',
      firstName: 'A',
      lastName: 'B',
      domainId: 'd1',
    });
    expectEvent(s.events, EM, { systemDomainId: 'd1', objectId: 'new', realm: 'user', operation: 'create' });
  });

  it('provisioning with no seat left in the domain: refused, no account made', async () => {
    const s = setup(NO_ACCOUNT);
    query
      .mockResolvedValueOnce([]) // the domain's lock
      .mockResolvedValueOnce([{ billing_limits: { standard_users: 1 } }]) // its limits
      .mockResolvedValueOnce([{ n: 1 }]); // the seats held
    await refusedFor(s.authority.vouch(assertion({ provision: true })), /no seat left/);
    expect(s.repo.insertOwnedAccount).not.toHaveBeenCalled();
    expect(s.events.record).not.toHaveBeenCalled();
  });
});

describe('SignInAuthority.tenantSession (judged again at the code exchange)', () => {
  const unauthorized = () => new ApiError(401, ['refused']);
  /** That u1 got d1's token on these terms, the caller's refusal handed on. */
  const expectIssued = (s: ReturnType<typeof setup>, terms: object) =>
    expect(s.issuing.signInToDomain).toHaveBeenCalledWith(
      user(),
      'd1',
      unauthorized,
      expect.objectContaining(terms),
    );

  it('an owned account: the domain’s login token without a ceiling', async () => {
    const s = setup();
    await s.authority.tenantSession(BY, 'u1', false, unauthorized);
    expect(s.repo.accountFacts).toHaveBeenCalledWith(MANAGER, { id: 'u1' }, 'd1');
    expectIssued(s, { method: 'saml', rightsCap: null, secondFactor: false });
  });

  it('an account not owned, self-linked: the token carries the domain administrator’s ceiling', async () => {
    const s = setup(facts({ otherDomains: 1 }));
    await s.authority.tenantSession(BY, 'u1', true, unauthorized);
    expectIssued(s, { method: 'saml', rightsCap: DOMAIN_ADMIN_CAP, secondFactor: false });
  });

  it('a directory’s sign-in applies the domain’s second-factor policy (secondFactor), SAML’s does not', async () => {
    const s = setup();
    await s.authority.tenantSession({ ...BY, kind: 'directory' }, 'u1', false, unauthorized, undefined, {
      secondFactor: true,
    });
    expectIssued(s, { method: 'directory', rightsCap: null, secondFactor: true });
  });

  it('an account that no longer qualifies: the caller’s 401, no token', async () => {
    const s = setup(facts({ user: user({ status: 'INACTIVE' }) }));
    await expect(s.authority.tenantSession(BY, 'u1', false, unauthorized)).rejects.toMatchObject({
      status: 401,
    });
    expect(s.issuing.signInToDomain).not.toHaveBeenCalled();
  });
});

describe('SignInAuthority: the service’s own sign-ins', () => {
  it('factorOwed: a factor the user confirmed, or the domain’s requirement, read inside the caller’s transaction', async () => {
    expect(await setup(facts(), ['TOTP']).authority.factorOwed(EM, { mfa_required: false }, 'u1')).toBe(true);
    expect(await setup(facts(), []).authority.factorOwed(EM, { mfa_required: true }, 'u1')).toBe(true);
    const s = setup(facts(), []);
    expect(await s.authority.factorOwed(EM, { mfa_required: false }, 'u1')).toBe(false);
    expect(s.repo.configuredMethods).toHaveBeenCalledWith(EM, 'u1');
  });

  it('pendingSession: the temporary token in its own transaction, by password, the user as the actor', async () => {
    const s = setup();
    await expect(s.authority.pendingSession('u1', 'd1')).resolves.toBe('temp');
    expect(s.issuing.tempToken).toHaveBeenCalledWith(
      EM,
      'u1',
      'd1',
      expect.objectContaining({ method: 'password', origin: expect.objectContaining({ actorUserId: 'u1' }) }),
    );
  });

  it('serviceSession: the flow’s domain token inside the flow’s own manager', async () => {
    const s = setup();
    await s.authority.serviceSession(EM, { userId: 'u1', domainId: 'd2' }, { method: 'invitation' });
    expect(s.issuing.domainToken).toHaveBeenCalledWith(EM, 'u1', 'd2', { method: 'invitation' });
  });
});
