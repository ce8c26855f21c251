// PatchOps (scim-patch.ts) on a User and a Group as the service holds them, in the forms Okta and Entra send,
// read back the way the services read them (readUser, readGroup); and the PatchOps that must be refused.
import { describe, expect, it } from '@jest/globals';
import { applyPatch } from './scim-patch.js';
import { groupResource, readGroup, readUser, type Resource, userResource } from './scim-resources.js';
import { SCIM } from './scim-schemas.js';
import { refusalOf } from '../../../test/utils/scim-refusal.js';
import { ANALYSTS_ID as GROUP_ID, SCIM_BASE as BASE, scimUserRow } from '../../../test/utils/fakes/scim.js';

const [U1, U2, U3] = [
  '11111111-1111-4111-8111-000000000001',
  '22222222-2222-4222-8222-000000000002',
  '33333333-3333-4333-8333-000000000003',
];
const AT = new Date('2026-01-05T08:00:00Z');
const ENT = SCIM.enterprise;

/** The current User: Ada, active, with a name, an external id, enterprise fields and a group. */
const ADA = userResource(
  scimUserRow({
    date_created: AT,
    date_modified: AT,
    display_name: 'Ada L.',
    enterprise: { department: 'Engines', manager: { value: 'mgr-1' } },
  }),
  [{ id: GROUP_ID, name: 'Analysts' }],
  BASE,
);
const ADA_INPUT = readUser(ADA);

/** The current Group: Analysts with members U1 and U2 (or those given). */
const analysts = (members = [U1, U2]) =>
  groupResource(
    { id: GROUP_ID, name: 'Analysts', external_id: null, roles: [], date_created: AT, date_modified: AT },
    members.map((id) => ({ id, email: `${id.slice(0, 4)}@example.com` })),
    BASE,
  );

const patchOf = (...Operations: unknown[]) => ({ schemas: [SCIM.patch], Operations });
/** The User after the operations, read as the users service reads it. */
const userAfter = async (...ops: unknown[]) => readUser(await applyPatch('User', ADA, patchOf(...ops)));
/** The Group's name, external id and member ids after the operations (on U1, U2 unless told). */
const groupAfter = async (ops: unknown[], members?: string[]) =>
  readGroup(await applyPatch('Group', analysts(members), patchOf(...ops)));

describe('applyPatch (User)', () => {
  it('answers the patched resource in the inbound form: no id, meta of its own or groups', async () => {
    const out: Resource = await applyPatch(
      'User',
      ADA,
      patchOf({ op: 'replace', path: 'displayName', value: 'A' }),
    );
    expect(out).toMatchObject({ schemas: [SCIM.user, ENT], userName: 'ada@example.com', displayName: 'A' });
    expect(out).not.toHaveProperty('id');
    expect(out).not.toHaveProperty('groups');
    expect(out.meta).toEqual({ resourceType: 'User' });
  });

  it('leaves the current resource as it was', async () => {
    const before = JSON.stringify(ADA);
    await applyPatch('User', ADA, patchOf({ op: 'replace', path: 'name.givenName', value: 'Augusta' }));
    expect(JSON.stringify(ADA)).toBe(before);
  });

  it.each(['replace', 'Replace', 'REPLACE'])('takes op %p (any case): active false', async (op) => {
    expect(await userAfter({ op, path: 'active', value: false })).toEqual({
      ...ADA_INPUT,
      status: 'INACTIVE',
    });
  });

  it.each([
    ['"False"', 'False', 'INACTIVE'],
    ['" false "', ' false ', 'INACTIVE'],
  ])('takes Entra’s string %s for path active', async (_what, value, status) => {
    expect((await userAfter({ op: 'Replace', path: 'active', value })).status).toBe(status);
  });

  it('takes a value object without a path: {"active": "False"}, {"active": false}', async () => {
    expect((await userAfter({ op: 'Replace', value: { active: 'False' } })).status).toBe('INACTIVE');
    expect((await userAfter({ op: 'replace', value: { active: false } })).status).toBe('INACTIVE');
  });

  it('takes a value object of dotted paths: {"name.givenName": "Augusta"}', async () => {
    expect(
      await userAfter({ op: 'replace', value: { 'name.givenName': 'Augusta', displayName: 'A. K.' } }),
    ).toEqual({
      ...ADA_INPUT,
      firstName: 'Augusta',
      displayName: 'A. K.',
    });
  });

  it('replaces name.givenName by path, leaving familyName', async () => {
    const input = await userAfter({ op: 'replace', path: 'name.givenName', value: 'Augusta' });
    expect([input.firstName, input.lastName]).toEqual(['Augusta', 'Lovelace']);
  });

  it('replaces userName: the email it reads, lower-cased', async () => {
    expect((await userAfter({ op: 'replace', path: 'userName', value: 'Ada.King@Example.com' })).email).toBe(
      'ada.king@example.com',
    );
  });

  it('replaces emails[type eq "work"].value: the account’s new email, read with the email it was', async () => {
    const ops = patchOf({ op: 'replace', path: 'emails[type eq "work"].value', value: 'Ada@Example.org' });
    const out = await applyPatch('User', ADA, ops);
    expect(out.userName).toBe('ada@example.com');
    expect(out.emails).toEqual([{ value: 'Ada@Example.org', type: 'work', primary: true }]);
    expect(readUser(out, 'ada@example.com').email).toBe('ada@example.org');
  });

  it('replaces, adds and removes enterprise fields by their URN paths', async () => {
    const replaced = await userAfter({ op: 'replace', path: `${ENT}:department`, value: 'Looms' });
    expect(replaced.enterprise).toEqual({ department: 'Looms', manager: { value: 'mgr-1' } });
    const added = await userAfter({ op: 'add', path: `${ENT}:employeeNumber`, value: '1815' });
    expect(added.enterprise).toEqual({
      department: 'Engines',
      employeeNumber: '1815',
      manager: { value: 'mgr-1' },
    });
    const manager = await userAfter({ op: 'replace', path: `${ENT}:manager`, value: { value: 'mgr-2' } });
    expect(manager.enterprise).toEqual({ department: 'Engines', manager: { value: 'mgr-2' } });
    const removed = await userAfter({ op: 'remove', path: `${ENT}:department` });
    expect(removed.enterprise).toEqual({ manager: { value: 'mgr-1' } });
  });

  it('takes enterprise fields in a value object, by URN path or under the URN', async () => {
    const byPath = await userAfter({ op: 'replace', value: { [`${ENT}:department`]: 'Looms' } });
    expect(byPath.enterprise.department).toBe('Looms');
    const nested = await userAfter({ op: 'Replace', value: { [ENT]: { department: 'Mills' } } });
    expect(nested.enterprise.department).toBe('Mills');
  });

  it('removes and adds attributes, several operations in order', async () => {
    const input = await userAfter(
      { op: 'remove', path: 'name.givenName' },
      { op: 'remove', path: 'externalId' },
      { op: 'Add', path: 'displayName', value: 'Countess' },
      { op: 'remove', path: 'displayName' },
    );
    expect(input).toEqual({ ...ADA_INPUT, firstName: null, externalId: null, displayName: null });
  });

  it('answers the resource unchanged for a PATCH that changes nothing (Okta re-sending active true)', async () => {
    expect(await userAfter({ op: 'replace', path: 'active', value: true })).toEqual(ADA_INPUT);
  });
});

describe('applyPatch (Group)', () => {
  it('adds members (path "members"), each id once', async () => {
    expect(await groupAfter([{ op: 'add', path: 'members', value: [{ value: U3 }, { value: U1 }] }])).toEqual(
      {
        name: 'Analysts',
        externalId: null,
        members: [U1, U2, U3],
      },
    );
  });

  it('removes a member by members[value eq "id"]', async () => {
    expect((await groupAfter([{ op: 'remove', path: `members[value eq "${U1}"]` }])).members).toEqual([U2]);
  });

  it('removes members listed in the value of a remove on path "members" (Entra)', async () => {
    const ops = [{ op: 'Remove', path: 'members', value: [{ value: U2 }] }];
    expect((await groupAfter(ops, [U1, U2, U3])).members).toEqual([U1, U3]);
  });

  it('replaces the members', async () => {
    expect((await groupAfter([{ op: 'replace', path: 'members', value: [{ value: U3 }] }])).members).toEqual([
      U3,
    ]);
  });

  it('renames by path and by a value object (op "Replace"), and sets externalId', async () => {
    expect((await groupAfter([{ op: 'replace', path: 'displayName', value: 'Engineers' }])).name).toBe(
      'Engineers',
    );
    const renamed = await groupAfter([
      { op: 'Replace', value: { displayName: 'Platform', externalId: 'g-9' } },
    ]);
    expect(renamed).toEqual({ name: 'Platform', externalId: 'g-9', members: [U1, U2] });
  });

  it('refuses a rename to an empty displayName with 400 invalidValue (readGroup)', async () => {
    const p = groupAfter([{ op: 'replace', path: 'displayName', value: '' }]);
    expect(await refusalOf(p)).toEqual({ status: 400, scimType: 'invalidValue' });
  });

  it('reads a Group whose last member was removed as no members', async () => {
    expect((await groupAfter([{ op: 'remove', path: `members[value eq "${U1}"]` }], [U1])).members).toEqual(
      [],
    );
    expect((await groupAfter([{ op: 'remove', path: 'members' }])).members).toEqual([]);
  });

  it('answers a remove of a member the group does not have (Entra) as no change', async () => {
    expect((await groupAfter([{ op: 'remove', path: `members[value eq "${U3}"]` }])).members).toEqual([
      U1,
      U2,
    ]);
  });
});

describe('applyPatch refusals', () => {
  it.each([
    ['no body', undefined],
    ['null', null],
    ['a string', 'replace active'],
    ['no Operations', { schemas: [SCIM.patch] }],
    ['Operations that are no list', { schemas: [SCIM.patch], Operations: { op: 'replace' } }],
  ])('refuses %s with 400 invalidSyntax', async (_what, b) => {
    expect(await refusalOf(applyPatch('User', ADA, b))).toEqual({ status: 400, scimType: 'invalidSyntax' });
  });

  it('refuses more than 1000 operations with 400 tooMany, and takes 1000', async () => {
    const op = { op: 'replace', path: 'displayName', value: 'x' };
    const many = (n: number) => patchOf(...Array.from({ length: n }, (_, i) => ({ ...op, value: `x${i}` })));
    expect(await refusalOf(applyPatch('User', ADA, many(1001)))).toEqual({
      status: 400,
      scimType: 'tooMany',
    });
    expect((await applyPatch('User', ADA, many(1000))).displayName).toBe('x999');
  });

  it.each(['bogus', 'delete', 'patch'])('refuses the op %p with 400 invalidSyntax', async (op) => {
    const p = applyPatch('User', ADA, patchOf({ op, path: 'displayName', value: 'x' }));
    expect(await refusalOf(p)).toEqual({ status: 400, scimType: 'invalidSyntax' });
  });

  it.each(['nope', 'emails[type eq', 'name.nickName.x', `${ENT}:nope`])(
    'refuses the path %p with 400 invalidPath',
    async (path) => {
      const p = applyPatch('User', ADA, patchOf({ op: 'replace', path, value: 'x' }));
      expect(await refusalOf(p)).toEqual({ status: 400, scimType: 'invalidPath' });
    },
  );

  it('takes attribute names in any case (RFC 7643 §2.1): paths, sub-attributes, value paths and value keys', async () => {
    const out = await applyPatch(
      'User',
      ADA,
      patchOf(
        { op: 'Replace', path: 'Active', value: 'False' },
        { op: 'replace', path: 'NAME.GIVENNAME', value: 'Augusta' },
        { op: 'replace', path: 'Emails[type eq "work"].VALUE', value: 'augusta@example.com' },
        { op: 'replace', value: { DisplayName: 'A. Lovelace', 'name.FamilyName': 'King' } },
      ),
    );
    expect(out).toMatchObject({
      active: false,
      name: { givenName: 'Augusta', familyName: 'King' },
      displayName: 'A. Lovelace',
      emails: [{ value: 'augusta@example.com', type: 'work' }],
    });
  });

  it('refuses a remove without a path with 400 noTarget', async () => {
    expect(await refusalOf(applyPatch('User', ADA, patchOf({ op: 'remove' })))).toEqual({
      status: 400,
      scimType: 'noTarget',
    });
  });

  it.each([
    ['an empty Operations list', patchOf()],
    ['an operation without op', patchOf({ path: 'displayName', value: 'x' })],
    ['an operation that is a string', patchOf('replace')],
    ['an operation that is null', patchOf(null)],
    ['active that is no boolean', patchOf({ op: 'replace', path: 'active', value: 'maybe' })],
    ['userName that is a number', patchOf({ op: 'replace', path: 'userName', value: 42 })],
  ])('refuses %s with 400 invalidValue', async (_what, b) => {
    expect(await refusalOf(applyPatch('User', ADA, b))).toEqual({ status: 400, scimType: 'invalidValue' });
  });
});
