import { jest } from '@jest/globals';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { Role } from '../../base/common/auth/roles.js';
import type { AppConfig } from '../../app/config.js';
import type { ActingRightsService } from '../../credentials/tokens/acting-rights.service.js';
import type { DomainUser } from './user-rules.js';
import { UsersService } from './users.service.js';
import { authContext, fixedClock, recordingEvents, repoWithTransaction } from '../../../test/utils/fakes.js';
import { EM, NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { err, expectEvent, expectUncalled } from '../../../test/utils/fakes/expect.js';

const user = (over: Partial<DomainUser> = {}): DomainUser =>
  ({
    id: 'u2',
    email: 'b@example.test',
    first_name: 'B',
    last_name: 'Bee',
    status: 'ACTIVE',
    type: 'STANDARD',
    is_super_admin: false,
    is_admin: false,
    system_domain_id: 'd1',
    date_created: NOW,
    date_modified: NOW,
    last_login: null,
    ...over,
  }) as DomainUser;

const caller = (over: Partial<AuthContext> = {}, roles: Role[] = ['can_write_users' as Role]) =>
  authContext({
    kind: 'LOGIN',
    rightsCap: null,
    isAdmin: false,
    isSuperAdmin: false,
    roles,
    scopes: null,
    record: { is_mfa_authenticated: false, auth_time: NOW },
    ...over,
  });

function setup(target: DomainUser | null = user(), { otherDomains = 0, domains = ['d1'] } = {}) {
  let stored = target;
  const repo = repoWithTransaction(EM, {
    member: jest.fn(async () => stored),
    otherDomains: jest.fn(async () => otherDomains),
    emailTaken: jest.fn(async () => false),
    domainIds: jest.fn(async () => domains),
    assertSeat: jest.fn(async (_em: unknown, _domainId: string, _type: string, _o: object) => undefined),
    insert: jest.fn(async () => 'new-id'),
    updateAccount: jest.fn(async (_em: unknown, _id: string, changes: object) => {
      stored = { ...stored!, ...changes } as DomainUser;
    }),
    setAdmin: jest.fn(async () => undefined),
    retireMailedSecrets: jest.fn(async (..._a: unknown[]) => undefined),
    removeMembership: jest.fn(async (): Promise<string | null> => null),
    deleteAccount: jest.fn(async () => undefined),
    withMemberships: jest.fn(async (_d: string, users: object[]) =>
      users.map((u) => ({ ...u, groups: [], teams: [], role_groups: [], primary_group: null })),
    ),
  });
  const tokens = { revokeWhere: jest.fn(async () => 0) };
  const bus = { publish: jest.fn(async () => undefined) };
  const events = recordingEvents();
  const passwords = { assert: jest.fn(async () => undefined) };
  const audit = { change: jest.fn(async () => undefined), record: jest.fn(async () => undefined) };
  const service = construct(
    UsersService,
    repo,
    tokens,
    bus,
    {} as ActingRightsService,
    events,
    audit,
    passwords,
    fixedClock(NOW),
    { auth: { reauthWindowSeconds: 300 } } as AppConfig,
  );
  return { service, repo, tokens, bus, events, audit, passwords };
}

const nothingWritten = (s: ReturnType<typeof setup>) => {
  expectUncalled(s.repo, 'updateAccount', 'setAdmin', 'retireMailedSecrets');
  expectUncalled(s.events, 'record');
};

describe('UsersService.update', () => {
  it('lets users rename themselves without can_write_users', async () => {
    const s = setup(user({ id: 'u1' }));
    const out = await s.service.update(caller({}, []), 'u1', { first_name: 'New' });
    expect(s.repo.updateAccount).toHaveBeenCalledWith(EM, 'u1', { first_name: 'New' });
    expect(out.first_name).toBe('New');
    expectEvent(s.events, EM, { operation: 'update', objectId: 'u1' });
  });

  it('needs can_write_users for anything else, and for another user', async () => {
    const s = setup();
    await expect(s.service.update(caller({}, []), 'u2', { first_name: 'X' })).rejects.toEqual(
      err(403, 'auth.MISSING_ROLE'),
    );
    nothingWritten(s);
  });

  it('a PUT that sends back what is stored changes nothing and tells nobody (rights judged on real changes)', async () => {
    const s = setup(user({ id: 'u1' }));
    await s.service.update(caller({}, []), 'u1', {
      email: 'b@example.test',
      first_name: 'B',
      is_admin: false,
      status: 'ACTIVE',
    });
    nothingWritten(s);
  });

  it('refuses rank escalation: is_admin and type by non-administrators, administrators by users', async () => {
    let s = setup();
    await expect(s.service.update(caller(), 'u2', { is_admin: true })).rejects.toEqual(
      err(403, 'users.IS_ADMIN_ADMIN_ONLY', ['Only an administrator may change is_admin']),
    );
    await expect(s.service.update(caller(), 'u2', { type: 'POWER' })).rejects.toEqual(
      err(403, 'users.TYPE_ADMIN_ONLY', ['Only an administrator may change a user’s type']),
    );
    nothingWritten(s);
    // their own type included
    s = setup(user({ id: 'u1' }));
    await expect(s.service.update(caller(), 'u1', { type: 'POWER' })).rejects.toEqual(
      err(403, 'users.TYPE_ADMIN_ONLY'),
    );
    nothingWritten(s);
    s = setup(user({ is_admin: true }));
    await expect(s.service.update(caller(), 'u2', { first_name: 'X' })).rejects.toEqual(
      err(403, 'users.ADMIN_RANK', ['Only an administrator may change an administrator']),
    );
    s = setup(user({ is_super_admin: true }));
    await expect(s.service.update(caller({ isAdmin: true }), 'u2', { first_name: 'X' })).rejects.toEqual(
      err(403, 'users.SUPER_ADMIN_RANK', ['Only a super administrator may change a super administrator']),
    );
    nothingWritten(s);
  });

  it('ignores is_super_admin from anyone but a super administrator', async () => {
    const s = setup();
    await s.service.update(caller({ isAdmin: true }), 'u2', { is_super_admin: true, first_name: 'X' });
    expect(s.repo.updateAccount).toHaveBeenCalledWith(EM, 'u2', { first_name: 'X' });
  });

  it('an administrator of one domain cannot change the account of a user who belongs to another (cross-tenant)', async () => {
    const s = setup(user(), { otherDomains: 1 });
    await expect(
      s.service.update(caller({ isAdmin: true }), 'u2', { email: 'mine@example.test' }),
    ).rejects.toEqual(err(403, 'users.SHARED_ACCOUNT'));
    expect(s.repo.otherDomains).toHaveBeenCalledWith(EM, 'd1', 'u2');
    nothingWritten(s);
    // the membership's own flag is this domain's to change
    await s.service.update(caller({ isAdmin: true }), 'u2', { is_admin: true });
    expect(s.repo.setAdmin).toHaveBeenCalledWith(EM, 'd1', 'u2', true);
    // a super administrator may
    const sup = setup(user(), { otherDomains: 1 });
    await sup.service.update(caller({ isAdmin: true, isSuperAdmin: true }), 'u2', { last_name: 'Z' });
    expect(sup.repo.updateAccount).toHaveBeenCalled();
  });

  it('nobody deactivates or demotes themselves', async () => {
    const s = setup(user({ id: 'u1', is_admin: true }));
    await expect(s.service.update(caller({ isAdmin: true }), 'u1', { status: 'INACTIVE' })).rejects.toEqual(
      err(400, 'users.INVALID'),
    );
    await expect(s.service.update(caller({ isAdmin: true }), 'u1', { is_admin: false })).rejects.toEqual(
      err(400, 'users.INVALID'),
    );
    nothingWritten(s);
  });

  it('own email or password: only from the person’s own recent sign-in, never from an app’s token', async () => {
    const s = setup(user({ id: 'u1' }));
    await expect(
      s.service.update(caller({ kind: 'PAT' }), 'u1', { email: 'n@example.test' }),
    ).rejects.toEqual(err(403, 'auth.ACCOUNT_CHANGE_OWN_SIGN_IN'));
    const old = { is_mfa_authenticated: false, auth_time: new Date(NOW.getTime() - 301_000) };
    await expect(
      s.service.update(caller({ record: old as never }), 'u1', { email: 'n@example.test' }),
    ).rejects.toEqual(expect.objectContaining({ status: 403 }));
    nothingWritten(s);
  });

  it('a new email clears its proof in the same UPDATE, and ends what was mailed to the old address', async () => {
    const s = setup();
    await s.service.update(caller({ isAdmin: true }), 'u2', { email: 'new@example.test' });
    expect(s.repo.updateAccount).toHaveBeenCalledWith(EM, 'u2', {
      email: 'new@example.test',
      email_verified_at: null,
    });
    expect(s.repo.retireMailedSecrets).toHaveBeenCalledWith(EM, 'u2');
    // the stored address sent back (a PUT), or another field changed: the proof stays, the secrets too
    const same = setup();
    await same.service.update(caller({ isAdmin: true }), 'u2', { email: 'b@example.test', last_name: 'Q' });
    expect(same.repo.updateAccount).toHaveBeenCalledWith(EM, 'u2', { last_name: 'Q' });
    expect(same.repo.retireMailedSecrets).not.toHaveBeenCalled();
  });

  it('refuses an email another account has, before writing', async () => {
    const s = setup();
    s.repo.emailTaken.mockResolvedValueOnce(true);
    await expect(
      s.service.update(caller({ isAdmin: true }), 'u2', { email: 'c@example.test' }),
    ).rejects.toEqual(err(409, 'users.EMAIL_TAKEN'));
    expect(s.repo.emailTaken).toHaveBeenCalledWith(EM, 'c@example.test', 'u2');
    nothingWritten(s);
  });

  it('judges a new password against every domain of the account, and stores only its argon2 hash', async () => {
    const s = setup(user(), { domains: ['d1', 'd2'] });
    await s.service.update(caller({ isAdmin: true, isSuperAdmin: true }), 'u2', {
      password: 'correct horse battery',
    });
    expect(s.passwords.assert).toHaveBeenCalledWith(
      ['d1', 'd2'],
      'correct horse battery',
      expect.objectContaining({ em: EM }),
    );
    const changes = s.repo.updateAccount.mock.calls[0][2] as { password_hash: string };
    expect(changes.password_hash).toMatch(/^\$argon2id\$/);
    expect(JSON.stringify(changes)).not.toContain('correct horse');
  });

  it('a refused password changes nothing', async () => {
    const s = setup();
    s.passwords.assert.mockRejectedValueOnce(new Error('too weak'));
    await expect(s.service.update(caller({ isAdmin: true }), 'u2', { password: 'x' })).rejects.toThrow(
      'too weak',
    );
    nothingWritten(s);
  });

  it('takes a seat in each domain when activated or retyped; revokes every token on deactivation', async () => {
    const s = setup(user({ status: 'INACTIVE' }), { domains: ['d1', 'd2'] });
    await s.service.update(caller({ isAdmin: true }), 'u2', { status: 'ACTIVE' });
    expect(s.repo.assertSeat.mock.calls.map((c) => c[1])).toEqual(['d1', 'd2']);
    expect(s.repo.assertSeat).toHaveBeenCalledWith(
      EM,
      'd1',
      'STANDARD',
      expect.objectContaining({ excludeUserId: 'u2' }),
    );
    expect(s.tokens.revokeWhere).not.toHaveBeenCalled();

    const d = setup(user());
    await d.service.update(caller({ isAdmin: true }), 'u2', { status: 'INACTIVE' });
    expect(d.tokens.revokeWhere).toHaveBeenCalledWith({ user_id: 'u2' }, { em: EM, requestId: 'r1' });
    expect(d.repo.assertSeat).not.toHaveBeenCalled();
  });

  it('answers 404 for a user who is not a member of the caller’s domain', async () => {
    const s = setup(null);
    await expect(s.service.update(caller({ isAdmin: true }), 'u9', { first_name: 'X' })).rejects.toEqual(
      err(404, 'users.NOT_FOUND'),
    );
    expect(s.repo.member).toHaveBeenCalledWith('d1', 'u9', { em: EM, lock: true });
  });
});

describe('UsersService.create and remove', () => {
  it('creates in the caller’s domain only; is_super_admin only from a super administrator', async () => {
    const s = setup(user({ id: 'new-id' }));
    await s.service.create(caller({ isAdmin: true }), {
      email: 'n@example.test',
      is_super_admin: true,
      is_admin: true,
    } as never);
    const [em, account, isAdmin] = s.repo.insert.mock.calls[0] as unknown as [
      unknown,
      Record<string, unknown>,
      boolean,
    ];
    expect(em).toBe(EM);
    expect(account).toEqual(
      expect.objectContaining({ system_domain_id: 'd1', is_super_admin: false, password_hash: null }),
    );
    expect(isAdmin).toBe(true);
    expect(s.repo.assertSeat).toHaveBeenCalledWith(
      EM,
      'd1',
      'STANDARD',
      expect.objectContaining({ countPending: true }),
    );
    expectEvent(s.events, EM, { operation: 'create' });
  });

  it('refuses a taken email before inserting', async () => {
    const s = setup();
    s.repo.emailTaken.mockResolvedValueOnce(true);
    await expect(s.service.create(caller(), { email: 'b@example.test' } as never)).rejects.toEqual(
      err(409, 'users.EMAIL_TAKEN'),
    );
    expect(s.repo.insert).not.toHaveBeenCalled();
  });

  it('refuses deleting yourself, outranking and someone not of the domain, removing nothing', async () => {
    const s = setup(user({ is_admin: true }));
    await expect(s.service.remove(caller(), 'u1')).rejects.toEqual(
      err(400, 'users.DELETE_SELF', ['You cannot delete yourself']),
    );
    await expect(s.service.remove(caller(), 'u2')).rejects.toEqual(err(403, 'users.ADMIN_RANK'));
    await expect(setup(null).service.remove(caller(), 'u9')).rejects.toEqual(err(404, 'users.NOT_FOUND'));
    expect(s.repo.removeMembership).not.toHaveBeenCalled();
  });

  it('deletes the account with its last membership (and tells the app caches)', async () => {
    const s = setup();
    await s.service.remove(caller({ isAdmin: true }), 'u2');
    expect(s.repo.removeMembership).toHaveBeenCalledWith(EM, 'd1', 'u2');
    expect(s.repo.deleteAccount).toHaveBeenCalledWith(EM, 'u2');
    expect(s.bus.publish).toHaveBeenCalledTimes(1);
    expectEvent(s.events, EM, { operation: 'delete', data: { id: 'u2' } });
  });

  it('keeps an account that belongs elsewhere, moving its home domain when it was this one', async () => {
    const s = setup();
    s.repo.removeMembership.mockResolvedValueOnce('d2');
    await s.service.remove(caller({ isAdmin: true }), 'u2');
    expect(s.repo.deleteAccount).not.toHaveBeenCalled();
    expect(s.repo.updateAccount).toHaveBeenCalledWith(EM, 'u2', { system_domain_id: 'd2' });
    expect(s.bus.publish).not.toHaveBeenCalled();

    const elsewhere = setup(user({ system_domain_id: 'd3' }));
    elsewhere.repo.removeMembership.mockResolvedValueOnce('d3');
    await elsewhere.service.remove(caller({ isAdmin: true }), 'u2');
    expect(elsewhere.repo.updateAccount).not.toHaveBeenCalled();
  });
});

describe('UsersService.update: the refusals in the wire’s words', () => {
  it('self-deactivation and self-demotion at once: one 400 naming both fields', async () => {
    const s = setup(user({ id: 'u1', is_admin: true }));
    await expect(
      s.service.update(caller({ isAdmin: true }), 'u1', { status: 'INACTIVE', is_admin: false }),
    ).rejects.toEqual(
      err(400, 'users.INVALID', {
        status: 'you cannot deactivate yourself',
        is_admin: 'you cannot remove your own administrator rights',
      }),
    );
    nothingWritten(s);
  });

  it('a user of several domains: every account field is theirs or a super administrator’s; the user renames themselves', async () => {
    const s = setup(user(), { otherDomains: 1 });
    for (const body of [
      { email: 'n@example.test' },
      { password: 'taken-over-pw' },
      { status: 'INACTIVE' as const },
      { first_name: 'Renamed' },
      { last_name: 'Elsewhere' },
    ]) {
      await expect(s.service.update(caller({ isAdmin: true }), 'u2', body)).rejects.toEqual(
        err(403, 'users.SHARED_ACCOUNT', [
          'This user also belongs to other domains: only they or a super administrator may change their name, email, password or status',
        ]),
      );
    }
    nothingWritten(s);
    expect(s.passwords.assert).not.toHaveBeenCalled();
    const self = setup(user({ id: 'u1' }), { otherDomains: 1 });
    await self.service.update(caller({}, []), 'u1', { first_name: 'Shared' });
    expect(self.repo.updateAccount).toHaveBeenCalledWith(EM, 'u1', { first_name: 'Shared' });
  });
});

describe('UsersService.create: is_super_admin', () => {
  // ignored from anyone else: 'creates in the caller’s domain only; is_super_admin only from a super administrator'
  it('is honoured from a super administrator', async () => {
    const bySuper = setup(user({ id: 'new-id' }));
    await bySuper.service.create(caller({ isAdmin: true, isSuperAdmin: true }), {
      email: 's@example.test',
      is_super_admin: true,
    } as never);
    expect(bySuper.repo.insert).toHaveBeenCalledWith(
      EM,
      expect.objectContaining({ is_super_admin: true }),
      false,
    );
  });
});
