// SCIM Users (ScimUsersService) over a fake ScimRepository holding one owned account: what a create, PUT,
// PATCH and DELETE write, revoke and record, and what they refuse before writing anything.
import { describe, expect, it, jest } from '@jest/globals';
import { authContext, fixedClock, repoWithTransaction } from '../../../test/utils/fakes.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import type { ScimUserRow } from './scim.repository.js';
import { SCIM } from './scim-schemas.js';
import { matchesVersion } from './scim-resources.js';
import { ScimUsersService } from './scim-users.service.js';
import { refusalOf } from '../../../test/utils/scim-refusal.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';
import { expectAudited, expectUncalled } from '../../../test/utils/fakes/expect.js';
import { ADA_ID as ID, SCIM_BASE as BASE, scimUserRow as row } from '../../../test/utils/fakes/scim.js';

const NEW_ID = '9e8d7c6b-5a49-4382-9716-05f4e3d2c1b0';
const ADMIN_ID = 'ad000000-0000-4000-8000-00000000000a';
/** The provisioning token's caller: the administrator it acts for, in domain d1, request r1. */
const caller = () => authContext({ userId: ADMIN_ID, kind: 'SCIM' as never });

/** The service over one stored account (none: `null`); `taken`: every other email is another account's. */
/** That the account's change was audited in the transaction as the provisioning token's, via SCIM. */
const expectScimAudit = (
  s: { audit: { change: unknown }; em: unknown },
  action: string,
  id: string,
  operation: string,
) => expectAudited(s.audit, s.em, action, { type: 'user', id }, { operation, via: 'scim' }, caller());

function setup(stored: ScimUserRow | null = row(), { taken = false } = {}) {
  let current = stored ?? undefined;
  // the transaction's manager: lockDomain and the seat check run their statements on it
  const em = {
    connection: {},
    query: jest.fn(async (sql: string) => (/billing_limits/.test(sql) ? [{ billing_limits: null }] : [])),
  };
  const account = () =>
    ({ ...current!, type: 'STANDARD', is_super_admin: false, last_login: null }) as unknown as UserEntity;
  const repo = repoWithTransaction(em, {
    manager: em,
    users: jest.fn(async () => (current ? [current] : [])),
    user: jest.fn(async (_d: string, id: string, _em?: unknown, _lock?: boolean) =>
      current?.id === id ? current : undefined,
    ),
    groupsOf: jest.fn(async () => []),
    emailTaken: jest.fn(async (_em: unknown, _email: string, _except?: string) => taken),
    insertUser: jest.fn(async (_em: unknown, _d: string, a: Partial<UserEntity>) => {
      current = row({ ...(a as Partial<ScimUserRow>), id: NEW_ID, external_id: null });
      return account();
    }),
    updateUser: jest.fn(async (_em: unknown, _id: string, changes: Partial<UserEntity>) => {
      current = { ...current!, ...(changes as Partial<ScimUserRow>) };
    }),
    saveProfile: jest.fn(async (_em: unknown, p: Record<string, unknown>) => {
      const { externalId, displayName, enterprise } = p as Record<string, never>;
      current = { ...current!, external_id: externalId, display_name: displayName, enterprise };
    }),
    account: jest.fn(async () => account()),
    deleteUser: jest.fn(async (_em: unknown, _id: string) => (current = undefined)),
  });
  const tokens = { revokeWhere: jest.fn(async (..._a: unknown[]) => 1) };
  const events = { record: jest.fn(async (..._a: unknown[]) => undefined) };
  const audit = { change: jest.fn(async (..._a: unknown[]) => undefined) };
  const bus = { publish: jest.fn(async (..._a: unknown[]) => undefined) };
  const service = construct(ScimUsersService, repo, tokens, events, audit, bus, fixedClock(NOW));
  return { service, repo, em, tokens, events, audit, bus };
}
type Setup = ReturnType<typeof setup>;

const nothingWritten = (s: Setup) => {
  expectUncalled(s.repo, 'insertUser', 'updateUser', 'saveProfile', 'deleteUser');
  expectUncalled(s.tokens, 'revokeWhere');
  expectUncalled(s.audit, 'change');
  expectUncalled(s.events, 'record');
};
const seatChecked = (s: Setup) => s.em.query.mock.calls.some(([sql]) => /billing_limits/.test(sql));
const patchOf = (...Operations: unknown[]) => ({ schemas: [SCIM.patch], Operations });
const userBody = (over: Record<string, unknown> = {}) => ({
  schemas: [SCIM.user],
  userName: 'Grace@Example.com',
  name: { givenName: 'Grace', familyName: 'Hopper' },
  ...over,
});

describe('ScimUsersService.create', () => {
  it('refuses an email another account has with 409 uniqueness, and writes nothing', async () => {
    const s = setup(null, { taken: true });
    expect(await refusalOf(s.service.create(caller(), userBody(), BASE))).toEqual({
      status: 409,
      scimType: 'uniqueness',
    });
    expect(s.repo.emailTaken).toHaveBeenCalledWith(s.em, 'grace@example.com');
    nothingWritten(s);
  });

  it('creates the account of the domain, its profile, audit record and event in one transaction', async () => {
    const s = setup(null);
    const out = await s.service.create(
      caller(),
      userBody({ externalId: 'okta-9', displayName: 'Amazing Grace' }),
      BASE,
    );
    expect(s.repo.transaction).toHaveBeenCalledTimes(1);
    expect(s.repo.insertUser).toHaveBeenCalledWith(s.em, 'd1', {
      email: 'grace@example.com',
      first_name: 'Grace',
      last_name: 'Hopper',
      status: 'ACTIVE',
    });
    expect(s.repo.saveProfile).toHaveBeenCalledWith(s.em, {
      userId: NEW_ID,
      domainId: 'd1',
      externalId: 'okta-9',
      displayName: 'Amazing Grace',
      enterprise: {},
    });
    expect(seatChecked(s)).toBe(true);
    expectScimAudit(s, 'user.created', NEW_ID, 'create');
    expect(s.events.record).toHaveBeenCalledWith(
      s.em,
      expect.objectContaining({ objectId: NEW_ID, realm: 'user', operation: 'create', eventType: 'users' }),
    );
    expect(out.resource).toMatchObject({ id: NEW_ID, userName: 'grace@example.com', active: true });
    expect(out.version).toBe((out.resource.meta as { version: string }).version);
  });

  it('creates an inactive account for "active": "False", taking no seat', async () => {
    const s = setup(null);
    const out = await s.service.create(caller(), userBody({ active: 'False' }), BASE);
    expect(s.repo.insertUser).toHaveBeenCalledWith(
      s.em,
      'd1',
      expect.objectContaining({ status: 'INACTIVE' }),
    );
    expect(seatChecked(s)).toBe(false);
    expect(out.resource.active).toBe(false);
  });

  it('refuses a userName that is no email with 400 invalidValue before any transaction', async () => {
    const s = setup(null);
    expect(await refusalOf(s.service.create(caller(), userBody({ userName: 'not-an-email' }), BASE))).toEqual(
      {
        status: 400,
        scimType: 'invalidValue',
      },
    );
    expect(s.repo.transaction).not.toHaveBeenCalled();
    nothingWritten(s);
  });
});

describe('ScimUsersService.patch', () => {
  it.each([
    ['{op: "replace", path: "active", value: false}', { op: 'replace', path: 'active', value: false }],
    [
      'Entra’s {op: "Replace", path: "active", value: "False"}',
      { op: 'Replace', path: 'active', value: 'False' },
    ],
    ['Okta’s {op: "replace", value: {active: false}}', { op: 'replace', value: { active: false } }],
  ])('active false (%s): inactive, its tokens revoked, audited user.changed', async (_what, op) => {
    const s = setup();
    const out = await s.service.patch(caller(), ID, patchOf(op), BASE);
    expect(s.repo.user).toHaveBeenCalledWith('d1', ID, s.em, true);
    expect(s.repo.updateUser).toHaveBeenCalledWith(s.em, ID, { status: 'INACTIVE' });
    expect(s.tokens.revokeWhere.mock.calls).toEqual([[{ user_id: ID }, { em: s.em, requestId: 'r1' }]]);
    expect(s.audit.change.mock.calls).toEqual([
      [s.em, caller(), 'user.changed', { type: 'user', id: ID }, { operation: 'update', via: 'scim' }],
    ]);
    expect(s.events.record).toHaveBeenCalledWith(
      s.em,
      expect.objectContaining({ objectId: ID, realm: 'user', operation: 'update', eventType: 'users' }),
    );
    expect(out.resource).toMatchObject({ id: ID, active: false });
  });

  it('active true on an inactive account: active again (a seat taken), nothing revoked', async () => {
    const s = setup(row({ status: 'INACTIVE' }));
    const out = await s.service.patch(
      caller(),
      ID,
      patchOf({ op: 'replace', value: { active: 'True' } }),
      BASE,
    );
    expect(s.repo.updateUser).toHaveBeenCalledWith(s.em, ID, { status: 'ACTIVE' });
    expect(seatChecked(s)).toBe(true);
    expect(s.tokens.revokeWhere).not.toHaveBeenCalled();
    expect(out.resource.active).toBe(true);
  });

  it('a change of displayName alone saves the profile, leaves the account and its tokens', async () => {
    const s = setup();
    await s.service.patch(
      caller(),
      ID,
      patchOf({ op: 'replace', path: 'displayName', value: 'Countess' }),
      BASE,
    );
    expect(s.repo.saveProfile).toHaveBeenCalledWith(
      s.em,
      expect.objectContaining({ userId: ID, displayName: 'Countess' }),
    );
    expect(s.repo.updateUser).not.toHaveBeenCalled();
    expect(s.tokens.revokeWhere).not.toHaveBeenCalled();
    expectScimAudit(s, 'user.changed', ID, 'update');
  });

  it('refuses a userName another account has with 409 uniqueness, and writes nothing', async () => {
    const s = setup(row(), { taken: true });
    const p = s.service.patch(
      caller(),
      ID,
      patchOf({ op: 'replace', path: 'userName', value: 'B@example.com' }),
      BASE,
    );
    expect(await refusalOf(p)).toEqual({ status: 409, scimType: 'uniqueness' });
    expect(s.repo.emailTaken).toHaveBeenCalledWith(s.em, 'b@example.com', ID);
    nothingWritten(s);
  });

  it('refuses to deactivate the administrator the token acts for with 403 mutability', async () => {
    const s = setup(row({ id: ADMIN_ID }));
    const p = s.service.patch(
      caller(),
      ADMIN_ID,
      patchOf({ op: 'replace', path: 'active', value: false }),
      BASE,
    );
    expect(await refusalOf(p)).toEqual({ status: 403, scimType: 'mutability' });
    nothingWritten(s);
  });

  it('answers 404 for an account the domain does not own', async () => {
    const s = setup();
    const p = s.service.patch(
      caller(),
      NEW_ID,
      patchOf({ op: 'replace', path: 'active', value: false }),
      BASE,
    );
    expect(await refusalOf(p)).toEqual({ status: 404, scimType: undefined });
    nothingWritten(s);
  });
});

describe('ScimUsersService If-Match', () => {
  const deactivate = patchOf({ op: 'replace', path: 'active', value: false });

  it('refuses a stale version with 412 invalidVers: no write, no revocation, no record', async () => {
    const s = setup();
    for (const stale of ['W/"stale"', '"stale"', 'W/"a", W/"b"']) {
      expect(await refusalOf(s.service.patch(caller(), ID, deactivate, BASE, stale))).toEqual({
        status: 412,
        scimType: 'invalidVers',
      });
      const put = s.service.replace(caller(), ID, userBody({ userName: 'ada@example.com' }), BASE, stale);
      expect(await refusalOf(put)).toEqual({ status: 412, scimType: 'invalidVers' });
      expect(await refusalOf(s.service.remove(caller(), ID, BASE, stale))).toEqual({
        status: 412,
        scimType: 'invalidVers',
      });
    }
    nothingWritten(s);
  });

  it('takes the current version, weak or strong, or *', async () => {
    for (const form of [(v: string) => v, (v: string) => v.replace(/^W\//, ''), () => '*']) {
      const s = setup();
      const { version } = await s.service.get(caller(), ID, BASE);
      await s.service.patch(caller(), ID, deactivate, BASE, form(version));
      expect(s.repo.updateUser).toHaveBeenCalledWith(s.em, ID, { status: 'INACTIVE' });
    }
  });

  it('deletes with the current version: the account, audited user.deleted, apps told', async () => {
    const s = setup();
    const { version } = await s.service.get(caller(), ID, BASE);
    await s.service.remove(caller(), ID, BASE, version);
    expect(s.repo.deleteUser).toHaveBeenCalledWith(s.em, ID);
    expectScimAudit(s, 'user.deleted', ID, 'delete');
    expect(s.bus.publish).toHaveBeenCalledTimes(1);
  });
});

describe('ScimUsersService.replace', () => {
  // the jsonb column keeps its own key order ({manager, department}: shorter keys first), readUser another
  // ({department, manager}): the enterprise fields compare whatever the order
  it('a PUT of what is stored (a manager and a department) writes and records nothing', async () => {
    const s = setup(row({ enterprise: { manager: { value: 'mgr-1' }, department: 'Engines' } }));
    const same = {
      ...userBody({ userName: 'ada@example.com', externalId: 'okta-00A1' }),
      schemas: [SCIM.user, SCIM.enterprise],
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      [SCIM.enterprise]: { department: 'Engines', manager: { value: 'mgr-1' } },
    };
    await s.service.replace(caller(), ID, same, BASE);
    nothingWritten(s);
  });

  it('a PUT of what is stored (no enterprise fields) writes and records nothing', async () => {
    const s = setup();
    const same = userBody({
      userName: 'ada@example.com',
      externalId: 'okta-00A1',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
    });
    await s.service.replace(caller(), ID, same, BASE);
    nothingWritten(s);
  });
});

describe('matchesVersion', () => {
  const V = 'W/"abc123"';
  it.each([
    ['the same weak version', 'W/"abc123"', true],
    ['its strong form', '"abc123"', true],
    ['*', '*', true],
    ['a list holding it', 'W/"zzz", W/"abc123"', true],
    ['a list holding *', '"zzz",*', true],
    ['spaces around it', '  W/"abc123"  ', true],
    ['another version', 'W/"abc124"', false],
    ['a list without it', 'W/"a", "b"', false],
    ['its opaque part unquoted', 'abc123', false],
    ['a prefix of it', 'W/"abc12"', false],
  ])('%s: %p → %p', (_what, header, ok) => {
    expect(matchesVersion(header, V)).toBe(ok);
  });
});
