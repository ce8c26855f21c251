// SCIM resources (scim-resources.ts): the User and Group resources the service answers (their schemas, meta
// and version), and the inbound bodies read in this service's terms (readUser, readGroup, foldActive).
import { describe, expect, it } from '@jest/globals';
import type { ScimGroupRow, ScimUserRow } from './scim.repository.js';
import {
  booleanOf,
  foldActive,
  groupResource,
  readGroup,
  readUser,
  type Resource,
  userResource,
} from './scim-resources.js';
import { SCIM } from './scim-schemas.js';
import { refusal } from '../../../test/utils/scim-refusal.js';
import {
  ADA_ID as ID,
  ANALYSTS_ID as GROUP_ID,
  SCIM_BASE as BASE,
  scimUserRow,
} from '../../../test/utils/fakes/scim.js';

const CREATED = new Date('2026-01-05T08:00:00Z');
const MODIFIED = new Date('2026-02-10T09:30:00Z');
const VERSION = /^W\/"[A-Za-z0-9_-]{22}"$/;

/** A resource's meta: created CREATED, modified MODIFIED, at `location`, with a version. */
const metaOf = (resourceType: string, location: string) => ({
  resourceType,
  created: '2026-01-05T08:00:00.000Z',
  lastModified: '2026-02-10T09:30:00.000Z',
  location,
  version: expect.stringMatching(VERSION),
});

const INVALID_VALUE = { status: 400, scimType: 'invalidValue' };

const ENTERPRISE = { department: 'Engines', employeeNumber: '1815', manager: { value: 'mgr-1' } };
const userRow = (over: Partial<ScimUserRow> = {}) =>
  scimUserRow({
    date_created: CREATED,
    date_modified: MODIFIED,
    display_name: 'Ada L.',
    enterprise: ENTERPRISE,
    ...over,
  });
const BARE = { external_id: null, display_name: null, first_name: null, last_name: null, enterprise: null };
const GROUPS = [{ id: GROUP_ID, name: 'Analysts' }];
const user = (over: Partial<ScimUserRow> = {}, groups = GROUPS) => userResource(userRow(over), groups, BASE);
const versionOf = (r: Resource) => (r.meta as { version: string }).version;

const groupRow = (over: Partial<ScimGroupRow> = {}): ScimGroupRow => ({
  id: GROUP_ID,
  name: 'Analysts',
  external_id: 'grp-7',
  roles: [],
  date_created: CREATED,
  date_modified: MODIFIED,
  ...over,
});
const MEMBERS = [{ id: ID, email: 'ada@example.com' }];
const group = (over: Partial<ScimGroupRow> = {}, members = MEMBERS) =>
  groupResource(groupRow(over), members, BASE);

/** A User body as a provider sends it, the given fields over a plain one. */
const body = (over: Record<string, unknown> = {}) => ({
  schemas: [SCIM.user],
  userName: 'ada@example.com',
  ...over,
});

describe('userResource', () => {
  it('answers the User with the enterprise extension, meta and groups', () => {
    const r = user();
    expect(r).toEqual({
      schemas: [SCIM.user, SCIM.enterprise],
      id: ID,
      externalId: 'okta-00A1',
      userName: 'ada@example.com',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      displayName: 'Ada L.',
      active: true,
      emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
      groups: [{ value: GROUP_ID, display: 'Analysts', $ref: `${BASE}/Groups/${GROUP_ID}` }],
      [SCIM.enterprise]: { department: 'Engines', employeeNumber: '1815', manager: { value: 'mgr-1' } },
      meta: metaOf('User', `${BASE}/Users/${ID}`),
    });
  });

  it('leaves out what the account does not have, and the enterprise URN without enterprise fields', () => {
    const r = user({ ...BARE, status: 'INACTIVE' }, []);
    expect(r).toEqual({
      schemas: [SCIM.user],
      id: ID,
      userName: 'ada@example.com',
      active: false,
      emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
      groups: [],
      meta: expect.objectContaining({ resourceType: 'User', location: `${BASE}/Users/${ID}` }),
    });
    // empty enterprise fields are none
    expect(user({ enterprise: { department: '' } }).schemas).toEqual([SCIM.user]);
    expect(user({ enterprise: {} })).not.toHaveProperty([SCIM.enterprise]);
  });

  it('names the enterprise URN with one enterprise field', () => {
    const r = user({ enterprise: { employeeNumber: '7' } });
    expect(r.schemas).toEqual([SCIM.user, SCIM.enterprise]);
    expect(r[SCIM.enterprise]).toEqual({ employeeNumber: '7' });
  });

  it('keeps its version while nothing it says changes (the same content, meta aside)', () => {
    expect(versionOf(user())).toBe(versionOf(user()));
    const later = new Date('2027-01-01T00:00:00Z');
    expect(versionOf(user({ date_modified: later, date_created: later }))).toBe(versionOf(user()));
  });

  it.each<[string, Partial<ScimUserRow>, { id: string; name: string }[]]>([
    ['email', { email: 'ada@example.org' }, GROUPS],
    ['first name', { first_name: 'Augusta' }, GROUPS],
    ['last name', { last_name: 'King' }, GROUPS],
    ['status', { status: 'INACTIVE' }, GROUPS],
    ['externalId', { external_id: 'okta-00A2' }, GROUPS],
    ['displayName', { display_name: 'Ada K.' }, GROUPS],
    ['department', { enterprise: { ...ENTERPRISE, department: 'Looms' } }, GROUPS],
    ['manager', { enterprise: { ...ENTERPRISE, manager: { value: 'mgr-2' } } }, GROUPS],
    ['groups', {}, []],
    ['a group’s name', {}, [{ id: GROUP_ID, name: 'Analysts II' }]],
  ])('changes its version when its %s changes', (_what, over, groups) => {
    const changed = user(over, groups);
    expect(versionOf(changed)).toMatch(VERSION);
    expect(versionOf(changed)).not.toBe(versionOf(user()));
  });

  it('dates lastModified by the later of the account’s and its profile’s changes', () => {
    const lastModified = (p_modified: Date | null) =>
      (userResource(userRow({ p_modified }), GROUPS, BASE).meta as { lastModified: string }).lastModified;
    expect(lastModified(new Date('2026-03-01T00:00:00Z'))).toBe('2026-03-01T00:00:00.000Z');
    expect(lastModified(new Date('2026-01-31T00:00:00Z'))).toBe(MODIFIED.toISOString());
    expect(lastModified(null)).toBe(MODIFIED.toISOString());
  });
});

describe('groupResource', () => {
  it('answers the Group with its members, meta and location', () => {
    expect(group()).toEqual({
      schemas: [SCIM.group],
      id: GROUP_ID,
      externalId: 'grp-7',
      displayName: 'Analysts',
      members: [{ value: ID, display: 'ada@example.com', type: 'User', $ref: `${BASE}/Users/${ID}` }],
      meta: metaOf('Group', `${BASE}/Groups/${GROUP_ID}`),
    });
  });

  it('leaves out a missing externalId; members is empty without any', () => {
    const r = group({ external_id: null }, []);
    expect(r).not.toHaveProperty('externalId');
    expect(r.members).toEqual([]);
  });

  it('changes its version with its name, externalId or members, and only then', () => {
    const v = versionOf(group());
    expect(versionOf(group({ date_modified: new Date('2030-01-01T00:00:00Z') }))).toBe(v);
    expect(versionOf(group({ name: 'Analysts II' }))).not.toBe(v);
    expect(versionOf(group({ external_id: 'grp-8' }))).not.toBe(v);
    expect(versionOf(group({}, []))).not.toBe(v);
    expect(versionOf(group({}, [{ id: ID, email: 'ada@example.org' }]))).not.toBe(v);
  });
});

describe('readUser', () => {
  it('reads a full body in this service’s terms', () => {
    const input = readUser(
      body({
        schemas: [SCIM.user, SCIM.enterprise],
        externalId: 'okta-00A1',
        name: { givenName: ' Ada ', familyName: 'Lovelace' },
        displayName: ' Ada L. ',
        active: true,
        emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
        [SCIM.enterprise]: { department: 'Engines', employeeNumber: '1815', manager: { value: 'mgr-1' } },
      }),
    );
    expect(input).toEqual({
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      displayName: 'Ada L.',
      externalId: 'okta-00A1',
      status: 'ACTIVE',
      enterprise: { department: 'Engines', employeeNumber: '1815', manager: { value: 'mgr-1' } },
    });
  });

  it('reads the absent and the empty as null, active by default, no enterprise fields', () => {
    expect(readUser(body({ externalId: '', displayName: '  ', name: { givenName: '' } }))).toEqual({
      email: 'ada@example.com',
      firstName: null,
      lastName: null,
      displayName: null,
      externalId: null,
      status: 'ACTIVE',
      enterprise: {},
    });
  });

  it('normalises userName: lower case, surrounding spaces gone, compatibility forms folded', () => {
    expect(readUser(body({ userName: 'Ada.Lovelace@Example.COM' })).email).toBe('ada.lovelace@example.com');
    expect(readUser(body({ userName: '  ada@example.com ' })).email).toBe('ada@example.com');
    expect(readUser(body({ userName: 'ａｄａ@example.com' })).email).toBe('ada@example.com');
  });

  it('takes the addresses the users API takes, a host without a dot included (the first start’s admin@localhost)', () => {
    expect(readUser(body({ userName: 'admin@localhost' })).email).toBe('admin@localhost');
  });

  it.each([
    ['not an email address', 'not-an-email'],
    ['empty', ''],
    ['two @', 'ada@@example.com'],
    ['a Cyrillic а in a Latin local part', 'p\u0430ypal@example.com'],
    ['a Greek ο in a Latin domain label', 'ada@gοogle.com'],
    ['a zero-width space', 'ad\u200ba@example.com'],
    ['a right-to-left override', 'ada\u202e@example.com'],
  ])('refuses a userName that is %s with 400 invalidValue', (_what, userName) => {
    expect(refusal(() => readUser(body({ userName })))).toEqual(INVALID_VALUE);
  });

  it('refuses a body without userName, or no object at all, with 400 invalidValue', () => {
    expect(refusal(() => readUser({ schemas: [SCIM.user], name: { givenName: 'Ada' } }))).toEqual(
      INVALID_VALUE,
    );
    for (const b of [null, 'ada@example.com', 42, []])
      expect(refusal(() => readUser(b))).toEqual(INVALID_VALUE);
  });

  it.each([
    ['False', 'INACTIVE'],
    ['false', 'INACTIVE'],
    [' FALSE ', 'INACTIVE'],
    [false, 'INACTIVE'],
    ['True', 'ACTIVE'],
    ['true', 'ACTIVE'],
    [true, 'ACTIVE'],
  ])('reads "active": %p as %s', (active, status) => {
    expect(readUser(body({ active })).status).toBe(status);
  });

  it('refuses an "active" that is no boolean with 400 invalidValue', () => {
    expect(refusal(() => readUser(body({ active: 'yes' })))).toEqual(INVALID_VALUE);
  });

  it('with the email it was: a changed work or primary email where userName stays is the new email', () => {
    const emails = (value: string, more: object = { type: 'work' }) => [{ value, ...more }];
    const was = 'ada@example.com';
    expect(readUser(body({ emails: emails('Ada@Example.ORG') }), was).email).toBe('ada@example.org');
    const primary = [
      { value: 'home@example.net', type: 'home' },
      ...emails('p@example.org', { primary: true }),
    ];
    expect(readUser(body({ emails: primary }), was).email).toBe('p@example.org');
    // a changed userName wins; without `was` (a POST, a PUT) userName is the email
    const both = body({ userName: 'king@example.com', emails: emails('x@example.org') });
    expect(readUser(both, was).email).toBe('king@example.com');
    expect(readUser(body({ emails: emails('x@example.org') })).email).toBe('ada@example.com');
    expect(readUser(body({ emails: emails('home@example.org', { type: 'home' }) }), was).email).toBe(was);
  });

  it('refuses a changed work email that is no address with 400 invalidValue', () => {
    const b = body({ emails: [{ value: 'p\u0430ypal@example.com', type: 'work' }] });
    expect(refusal(() => readUser(b, 'ada@example.com'))).toEqual(INVALID_VALUE);
  });

  it('keeps a manager only with a value, and leaves out empty enterprise fields', () => {
    const read = (ext: Record<string, unknown>) =>
      readUser(body({ schemas: [SCIM.user, SCIM.enterprise], [SCIM.enterprise]: ext })).enterprise;
    expect(read({ department: 'Engines', manager: {} })).toEqual({ department: 'Engines' });
    expect(read({ department: '', employeeNumber: '42' })).toEqual({ employeeNumber: '42' });
    expect(read({ manager: { value: 'mgr-9' } })).toEqual({ manager: { value: 'mgr-9' } });
  });
});

describe('readGroup', () => {
  it('reads the name (trimmed), externalId and the member ids, each once, in order', () => {
    const members = [{ value: 'u1' }, { value: 'u2' }, { value: 'u1' }, { value: 'u3' }];
    expect(readGroup({ schemas: [SCIM.group], displayName: ' Eng ', externalId: 'g-1', members })).toEqual({
      name: 'Eng',
      externalId: 'g-1',
      members: ['u1', 'u2', 'u3'],
    });
  });

  it('reads absent members and an empty list as none (a PUT replaces them)', () => {
    expect(readGroup({ schemas: [SCIM.group], displayName: 'Eng' })).toEqual({
      name: 'Eng',
      externalId: null,
      members: [],
    });
    expect(readGroup({ schemas: [SCIM.group], displayName: 'Eng', members: [] }).members).toEqual([]);
  });

  it('takes a displayName of 1 and of 256 characters', () => {
    expect(readGroup({ schemas: [SCIM.group], displayName: 'x' }).name).toBe('x');
    expect(readGroup({ schemas: [SCIM.group], displayName: 'x'.repeat(256) }).name).toHaveLength(256);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['257 characters', 'x'.repeat(257)],
  ])('refuses a displayName %s with 400 invalidValue', (_what, displayName) => {
    expect(refusal(() => readGroup({ schemas: [SCIM.group], displayName }))).toEqual(INVALID_VALUE);
  });
});

describe('foldActive and booleanOf', () => {
  it('booleanOf reads "true"/"false" in any case and spacing, and leaves anything else as it is', () => {
    expect([booleanOf('True'), booleanOf(' FALSE '), booleanOf('false'), booleanOf(true)]).toEqual([
      true,
      false,
      false,
      true,
    ]);
    for (const v of ['yes', '1', '', 0, null, undefined, { a: 1 }]) expect(booleanOf(v)).toBe(v);
  });

  it('foldActive makes the "active" of a body (any case) a boolean, and nothing else', () => {
    expect(foldActive({ active: 'False', userName: 'true', name: { active: 'True' } })).toEqual({
      active: false,
      userName: 'true',
      name: { active: 'True' },
    });
    expect(foldActive({ Active: 'TRUE' })).toEqual({ Active: true });
    expect(foldActive({ active: 'maybe' })).toEqual({ active: 'maybe' });
  });

  it('foldActive leaves what is no object as it is', () => {
    const list = [{ active: 'True' }];
    for (const v of [null, undefined, 'active', 3]) expect(foldActive(v)).toBe(v);
    expect(foldActive(list)).toBe(list);
  });
});
