import { jest } from '@jest/globals';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import type { BaseConfig } from '../../base/config/config.js';
import type { InvitationEntity } from '../../base/model/invitation.entity.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { authContext, fixedClock, transactionalRepo, uniqueViolation } from '../../../test/utils/fakes.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import {
  expectInvitationMailed,
  expectSeatAsked,
  mailAndEvents,
  seatRules,
} from '../../../test/utils/fakes/invitations.js';
import { accountRow, signInAuthority } from '../../../test/utils/fakes/accounts.js';

// the domain's lock and its seat limits are the users' rules, in the same transaction: faked here, they say
// in which order the service takes them and with which options
const seats = seatRules();
jest.unstable_mockModule('../../accounts/users/seat-limits.js', () => seats.module);
const { InvitationsService, INVITATION_TTL_MS } = await import('./invitations.service.js');

const SECRET = 's'.repeat(43);
const GOOD = 'Quartz-Lantern-91-Obelisk';
const UNIQUE = uniqueViolation();
const config = { http: { publicBaseUrl: 'https://auth.example.test' } } as unknown as BaseConfig;
const auth = authContext({
  user: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@corp.test' },
  domain: { name: 'Corp' },
});

const invitation = (over: Partial<InvitationEntity> = {}) =>
  ({
    id: 'inv1',
    system_domain_id: 'd1',
    email: 'ada@corp.test',
    first_name: 'Ada',
    last_name: null,
    type: 'STANDARD',
    user_id: null,
    inviter_user_id: 'u1',
    group_ids: [],
    is_admin: false,
    expires: new Date(NOW.getTime() + 1000),
    accepted_at: null,
    date_created: NOW,
    ...over,
  }) as InvitationEntity;
const account = (over: Partial<UserEntity> = {}) => accountRow({ password_hash: 'h', ...over });

function setup(
  o: {
    member?: boolean;
    replaced?: { id: string }[];
    pending?: InvitationEntity | null;
    live?: boolean;
    account?: UserEntity | null;
    domain?: Partial<SystemDomainEntity>;
    joined?: boolean;
    mfa?: { totp_confirmed_at: Date | null; mail_2sv_enabled: boolean | null } | null;
  } = {},
) {
  const order: string[] = [];
  seats.arm(order);
  const EM = { transaction: 'em' };
  const repo = transactionalRepo(order, EM, {
    manager: EM,
    isMemberByEmail: jest.fn(async () => o.member ?? false),
    deletePending: jest.fn(async () => {
      order.push('replace');
      return o.replaced ?? [];
    }),
    insertInvitation: jest.fn(async (_em: unknown, f: Partial<InvitationEntity>) => {
      order.push('insert');
      return { ...f, id: 'inv-new', date_created: NOW } as InvitationEntity;
    }),
    deletePendingById: jest.fn(async () => true),
    invitationByHash: jest.fn(async (_em: unknown, _h: string, _lock?: boolean) =>
      o.pending === undefined ? invitation() : o.pending,
    ),
    liveDomainName: jest.fn(async () => (o.live === false ? undefined : 'Corp')),
    user: jest.fn(async () => ({ email: 'grace@corp.test' }) as UserEntity),
    accountExists: jest.fn(async () => Boolean(o.account)),
    domainOrFail: jest.fn(
      async () => ({ id: 'd1', status: 'ACTIVE', mfa_required: false, ...o.domain }) as SystemDomainEntity,
    ),
    lockAccount: jest.fn(async () => (o.account ? { ...o.account } : null)),
    insertAccount: jest.fn(async (_em: unknown, f: Partial<UserEntity>) => {
      order.push('account');
      return { ...f, id: 'u-new' } as UserEntity;
    }),
    join: jest.fn(async () => {
      order.push('join');
      return o.joined ?? true;
    }),
    markAccepted: jest.fn(async (..._a: unknown[]) => {
      order.push('accept');
    }),
    markEmailVerified: jest.fn(async (..._a: unknown[]) => {
      order.push('email-verified');
    }),
    grantLink: jest.fn(async (..._a: unknown[]) => {
      order.push('grant');
    }),
    userOrFail: jest.fn(async (_em: unknown, id: string) => ({ ...account(), id }) as UserEntity),
  });
  const { mail, events } = mailAndEvents(order);
  const credentials = { verify: jest.fn(async (..._a: unknown[]): Promise<unknown> => o.account ?? null) };
  const passwords = { assert: jest.fn(async (..._a: unknown[]) => undefined) };
  // the authority's rule over the account's factors as o.mfa has them, read in the transaction
  const signIns = signInAuthority(EM, o.mfa);
  const service = construct(
    InvitationsService,
    config,
    mail,
    fixedClock(NOW),
    signIns,
    credentials,
    events,
    passwords,
    repo,
  );
  return { service, repo, mail, events, credentials, passwords, signIns, order, EM };
}

describe('InvitationsService.invite', () => {
  it('locks the domain, replaces the pending one, holds a seat, stores the hash and mails the link, in one transaction', async () => {
    const s = setup({ replaced: [{ id: 'old1' }] });
    const view = await s.service.invite(auth, { email: 'ada@corp.test', type: 'POWER' });
    expect(s.order).toEqual([
      'begin',
      'lock',
      'replace',
      'event:invitation:delete:old1',
      'seat',
      'insert',
      'mail:ada@corp.test',
      'event:invitation:create:inv-new',
      'commit',
    ]);
    const { row } = expectInvitationMailed(s, seats, 'POWER');
    expect(row).toMatchObject({
      expires: new Date(NOW.getTime() + INVITATION_TTL_MS),
      accepted_at: null,
      user_id: null,
    });
    expect(view).toMatchObject({ id: 'inv-new', email: 'ada@corp.test', type: 'POWER' });
  });

  it('refuses a member of the domain before replacing anything', async () => {
    const s = setup({ member: true });
    await expect(s.service.invite(auth, { email: 'ada@corp.test' })).rejects.toMatchObject({
      code: 'invitations.ALREADY_MEMBER',
    });
    expect(s.repo.deletePending).not.toHaveBeenCalled();
  });

  it('answers INVITED_CONCURRENTLY when a twin invitation won the unique index', async () => {
    const s = setup();
    s.repo.insertInvitation.mockRejectedValue(UNIQUE);
    await expect(s.service.invite(auth, { email: 'ada@corp.test' })).rejects.toMatchObject({
      code: 'invitations.INVITED_CONCURRENTLY',
    });
    expect(s.mail.queue).not.toHaveBeenCalled();
  });
});

describe('InvitationsService.withdraw and verify', () => {
  it('withdraws a pending invitation of the caller’s domain with its event; none is NOT_FOUND', async () => {
    const s = setup();
    await s.service.withdraw(auth, 'inv1');
    expect(s.repo.deletePendingById).toHaveBeenCalledWith(s.EM, 'inv1', 'd1');
    expect(s.order).toContain('event:invitation:delete:inv1');
    s.repo.deletePendingById.mockResolvedValue(false);
    await expect(s.service.withdraw(auth, 'inv2')).rejects.toMatchObject({ code: 'invitations.NOT_FOUND' });
  });

  it('shows the holder the inviter and whether the email has an account', async () => {
    const s = setup({ account: account() });
    await expect(s.service.verify(SECRET)).resolves.toEqual({
      inviter_email: 'grace@corp.test',
      local_user_exists: true,
      new_user_email: 'ada@corp.test',
      new_user_first_name: 'Ada',
      system_domain_id: 'd1',
    });
    expect(s.repo.invitationByHash.mock.calls[0][1]).toBe(sha256Hex(SECRET));
  });

  it('a link never issued is NOT_FOUND; an expired, used or dead domain’s one is LINK_EXPIRED', async () => {
    await expect(setup({ pending: null }).service.verify(SECRET)).rejects.toMatchObject({
      code: 'invitations.NOT_FOUND',
    });
    for (const o of [
      { pending: invitation({ expires: NOW }) },
      { pending: invitation({ accepted_at: NOW }) },
      { live: false },
    ]) {
      await expect(setup(o).service.verify(SECRET)).rejects.toMatchObject({
        code: 'invitations.LINK_EXPIRED',
      });
    }
  });
});

describe('InvitationsService.complete: a new account', () => {
  const body = { password: GOOD, repeat_password: GOOD, first_name: 'Augusta' };

  it('judges the password by the domain’s checks, creates the account, joins and accepts in one transaction, and signs in', async () => {
    const s = setup({ pending: invitation({ group_ids: ['g1', 'g2'], is_admin: true }) });
    const answer = await s.service.complete(SECRET, body, 'req1');
    expect(s.passwords.assert.mock.calls[0][0]).toEqual(['d1']);
    expect(s.passwords.assert.mock.calls[0][2]).toMatchObject({
      personal: ['ada@corp.test', 'Augusta', null],
    });
    expect(s.repo.insertAccount.mock.calls[0][1]).toMatchObject({
      email: 'ada@corp.test',
      first_name: 'Augusta',
      status: 'ACTIVE',
      type: 'STANDARD',
      is_super_admin: false,
    });
    expect(s.repo.insertAccount.mock.calls[0][1].password_hash).toMatch(/^\$argon2id\$/);
    expect(s.order).toEqual([
      'begin',
      'lock',
      'account',
      'join',
      'accept',
      'email-verified',
      'event:invitation:update:inv1',
      'grant',
      'event:user:create:u-new',
      'commit',
    ]);
    expect(s.repo.invitationByHash.mock.calls[1][2]).toBe(true); // claimed under a row lock
    // the mailed link proved the invitation's address, for the account just made, in the same transaction
    expect(s.repo.markEmailVerified).toHaveBeenCalledWith(s.EM, 'u-new', 'ada@corp.test');
    expect(s.repo.grantLink.mock.calls[0].slice(1)).toEqual(['u-new', 'd1', ['g1', 'g2'], true, 'g1']);
    expect(s.signIns.serviceSession.mock.calls[0].slice(1)).toEqual([
      { userId: 'u-new', domainId: 'd1' },
      { method: 'invitation' },
    ]);
    expect(answer).toEqual({
      auto_login: true,
      domain_status: 'ACTIVE',
      login_data: { app_id: 'app', token: 'jwt' },
      user_id: 'u-new',
    });
  });

  it('refuses two different passwords before reading anything', async () => {
    const s = setup();
    await expect(
      s.service.complete(SECRET, { ...body, repeat_password: 'other' }, null),
    ).rejects.toMatchObject({
      code: 'invitations.INVALID',
      errors: { repeat_password: 'must be the same as password' },
    });
    expect(s.repo.invitationByHash).not.toHaveBeenCalled();
  });

  it('refuses to join a frozen domain', async () => {
    const s = setup({ domain: { status: 'FROZEN' } });
    await expect(s.service.complete(SECRET, body, null)).rejects.toMatchObject({
      code: 'auth.DOMAIN_FROZEN',
    });
    expect(s.repo.insertAccount).not.toHaveBeenCalled();
  });

  it('does not sign in when a second factor is owed: the person signs in and is asked for it there', async () => {
    const s = setup({ domain: { mfa_required: true } });
    await expect(s.service.complete(SECRET, body, null)).resolves.toEqual({
      auto_login: false,
      domain_status: 'ACTIVE',
      login_data: null,
      user_id: 'u-new',
    });
    expect(s.signIns.serviceSession).not.toHaveBeenCalled();
  });
});

describe('InvitationsService.complete: an existing account', () => {
  const body = { password: GOOD, repeat_password: GOOD };

  it('proves the account’s own password outside the transaction (the guessing count must commit), then joins it as it is', async () => {
    const s = setup({ account: account() });
    await s.service.complete(SECRET, body, null);
    expect(s.credentials.verify).toHaveBeenCalledWith('ada@corp.test', GOOD, { includeInactive: true });
    expect(s.credentials.verify.mock.invocationCallOrder[0]).toBeLessThan(
      s.repo.transaction.mock.invocationCallOrder[0],
    );
    expect(s.repo.insertAccount).not.toHaveBeenCalled();
    expect(s.passwords.assert).not.toHaveBeenCalled();
    expect(s.repo.join).toHaveBeenCalledWith(s.EM, 'u2', 'd1');
    expect(s.repo.markEmailVerified).toHaveBeenCalledWith(s.EM, 'u2', 'ada@corp.test');
  });

  it('refuses a wrong password, or a password proved for another account than the one locked now', async () => {
    const wrong = setup({ account: account() });
    wrong.credentials.verify.mockResolvedValue(null);
    await expect(wrong.service.complete(SECRET, body, null)).rejects.toMatchObject({
      code: 'invitations.INVALID',
      errors: { password: expect.stringContaining('not the password') as unknown },
    });
    const other = setup({ account: account() });
    other.credentials.verify.mockResolvedValue(account({ id: 'u-older' }));
    await expect(other.service.complete(SECRET, body, null)).rejects.toMatchObject({
      code: 'invitations.INVALID',
    });
    expect(other.repo.join).not.toHaveBeenCalled();
    // a refused acceptance proves nothing about the address
    expect(wrong.repo.markEmailVerified).not.toHaveBeenCalled();
    expect(other.repo.markEmailVerified).not.toHaveBeenCalled();
  });

  it('refuses a deactivated account', async () => {
    const s = setup({ account: account({ status: 'INACTIVE' }) });
    await expect(s.service.complete(SECRET, body, null)).rejects.toMatchObject({
      code: 'invitations.ACCOUNT_DEACTIVATED',
    });
  });

  it('an account of another type needs a seat of its own type (the invitation’s does not count)', async () => {
    const s = setup({ account: account({ type: 'POWER' }) });
    await s.service.complete(SECRET, body, null);
    expectSeatAsked(seats, 'POWER', { excludeInvitationId: 'inv1' });
    const same = setup({ account: account() });
    await same.service.complete(SECRET, body, null);
    expect(seats.assertSeat).not.toHaveBeenCalled();
  });

  it('an account already a member gets nothing the link granted, and no user event', async () => {
    const s = setup({ account: account(), joined: false });
    await s.service.complete(SECRET, body, null);
    expect(s.repo.grantLink).not.toHaveBeenCalled();
    expect(s.order.filter((e) => e.startsWith('event:user'))).toEqual([]);
    expect(s.repo.markAccepted).toHaveBeenCalledWith(s.EM, 'inv1', NOW, 'u2');
  });
});
