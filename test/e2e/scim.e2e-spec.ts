// SCIM 2.0 provisioning (issue 43) over HTTP, as the identity providers drive it: an Okta-style and an
// Entra-style sequence checked step by step against the users service and password sign-in; the accounts a
// domain's token may not touch (super administrators, other tenants' members, shared accounts: 409 on create,
// 404 otherwise, nothing changed); the provisioning tokens; filters and pagination; ETags; the audit trail
// and webhook events; hostile input. The API: docs of issue 43 (SCIM routes under /API/scim/v2).
import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { Response } from 'supertest';
import { Clock } from '../../src/base/common/clock.js';
import { sha256Hex } from '../../src/base/common/crypto/secrets.js';
import { AppEntity } from '../../src/base/model/app.entity.js';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import { TokenEntity } from '../../src/base/model/token.entity.js';
import { UserSystemDomainEntity } from '../../src/base/model/user-system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { WebhookEventsService } from '../../src/delivery/events/webhook-events.service.js';
import type { WebhookEvent } from '../../src/delivery/events/webhook-events.service.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  CORE_GROUP,
  CORE_USER,
  ENTERPRISE,
  ERROR,
  LIST,
  PATCH_OP,
  SCIM,
  SCIM_TOKENS,
  ScimClient,
  type ScimDomain,
  expectScimError,
  expectStatus,
  provision,
  scimDomain,
  scimUser,
} from '../utils/scim-client.js';

const USERS = '/API/users/v1/users';
const GROUPS = '/API/users/v1/groups';
const CURRENT = '/API/users/v1/users/current/';
const VALIDATE = '/API/auth/v1/auth/token/';
const LOGIN = '/API/auth/v1/auth/simple/login/';
const AUDIT = '/API/audit/v1/events/';
const PASSWORD = 'provisioned-password-43';
const VERSION = /^W\/".+"$/;
const SCIM_MEDIA = /^application\/scim\+json/;

describe('SCIM 2.0 provisioning (/API/scim/v2)', () => {
  let t: TestApp;
  let clock: Clock;
  /** `${PUBLIC_BASE_URL}/API/scim/v2`: what base_url and every meta.location start with. */
  let base: string;
  /** What webhooks would be sent (WebhookEventsService.record), in order. */
  let recorded: WebhookEvent[];

  beforeAll(async () => {
    t = await createTestApp();
    clock = t.get(Clock);
    base = `${t.config.http.publicBaseUrl.replace(/\/$/, '')}${SCIM}`;
    recorded = [];
    const events = t.get(WebhookEventsService);
    const record = events.record.bind(events);
    jest.spyOn(events, 'record').mockImplementation(async (em, event) => {
      recorded.push(event);
      return record(em, event);
    });
  });
  afterEach(() => clock.reset());
  afterAll(() => t.close());

  // ---- helpers -------------------------------------------------------------------------------------------

  const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
  const emailOf = (prefix: string, host = 'provisioned.test') => `${unique(prefix)}@${host}`;

  /** The users service's view of an account, read by the domain's administrator (the response). */
  const usersService = (d: ScimDomain, id: string) => t.http.get(`${USERS}/${id}/`).set(d.adminH);
  const groupsService = (d: ScimDomain, id: string) => t.http.get(`${GROUPS}/${id}/`).set(d.adminH);
  const memberIds = async (d: ScimDomain, groupId: string): Promise<string[]> => {
    const res = await groupsService(d, groupId);
    expectStatus(res, 200);
    return [...(res.body.member_ids as string[])].sort();
  };

  /** Password sign-in: its status (201 signed in, 401 refused) and token. */
  const signIn = async (email: string, password = PASSWORD) => {
    const res = await t.http.post(LOGIN).send({ email, password });
    return { status: res.status, token: res.body.token as string | undefined };
  };
  /** The domain's administrator sets an account's password through the users service. */
  const setPassword = async (d: ScimDomain, id: string) =>
    expectStatus(await t.http.patch(`${USERS}/${id}/`).set(d.adminH).send({ password: PASSWORD }), 200);

  /** Everything about an account that a refused SCIM request must leave alone. */
  const snapshot = async (id: string) => ({
    user: await t.ds.getRepository(UserEntity).findOneBy({ id }),
    memberships: (await t.ds.getRepository(UserSystemDomainEntity).findBy({ user_id: id }))
      .map((m) => `${m.system_domain_id}:${m.is_admin}`)
      .sort(),
    groups: (await t.ds.query('SELECT group_id FROM group_members WHERE user_id = $1', [id]))
      .map((r: { group_id: string }) => r.group_id)
      .sort(),
  });

  /** The domain's audit records of one action about one target, through the audit API. */
  const auditOf = async (d: ScimDomain, action: string, targetId: string) => {
    const res = await t.http.get(AUDIT).set(d.adminH).query({ action, per_page: 1000 });
    expectStatus(res, 200);
    return (res.body.objects as { target_id: string | null }[]).filter((o) => o.target_id === targetId);
  };

  const patchUser = (d: ScimDomain, id: string, ...ops: { op: string; path?: string; value?: unknown }[]) =>
    d.scim.patch(`/Users/${id}`, ops);
  const patchGroup = (d: ScimDomain, id: string, ...ops: { op: string; path?: string; value?: unknown }[]) =>
    d.scim.patch(`/Groups/${id}`, ops);

  /** A single resource answer: status, media type, ETag = meta.version. */
  function expectResource(res: Response, status: 200 | 201) {
    expectStatus(res, status);
    expect(res.headers['content-type']).toMatch(SCIM_MEDIA);
    expect(res.body.meta.version).toMatch(VERSION);
    expect(res.headers.etag).toBe(res.body.meta.version);
    if (status === 201) expect(res.headers.location).toBe(res.body.meta.location);
  }

  // ---- Okta ------------------------------------------------------------------------------------------------

  describe('an Okta-style provisioning sequence, step by step', () => {
    let d: ScimDomain;
    const email = `okta.user-${randomUUID().slice(0, 8)}@okta-tenant.test`;
    let id: string;
    let resource: Record<string, any>;
    let heldToken: string;
    let groupId: string;

    beforeAll(async () => {
      d = await scimDomain(t);
    });

    it('1. looks the userName up first: an empty ListResponse', async () => {
      const res = await d.scim.get('/Users', { filter: `userName eq "${email}"`, startIndex: 1, count: 100 });
      expectStatus(res, 200);
      expect(res.headers['content-type']).toMatch(SCIM_MEDIA);
      expect(res.body).toMatchObject({ schemas: [LIST], totalResults: 0, startIndex: 1 });
      expect(res.body.Resources ?? []).toEqual([]);
    });

    it('2. POST /Users (application/scim+json): 201 with Location and ETag; a member of this domain only', async () => {
      const res = await d.scim.post(
        '/Users',
        scimUser(email, { externalId: '00u1okta2abc', givenName: 'Grace', familyName: 'Hopper' }),
      );
      expectResource(res, 201);
      id = res.body.id;
      expect(res.body).toMatchObject({
        schemas: expect.arrayContaining([CORE_USER]),
        id: expect.any(String),
        externalId: '00u1okta2abc',
        userName: email,
        name: { givenName: 'Grace', familyName: 'Hopper' },
        displayName: 'Grace Hopper',
        active: true,
        emails: [{ value: email, type: 'work', primary: true }],
        meta: {
          resourceType: 'User',
          created: expect.any(String),
          lastModified: expect.any(String),
          location: `${base}/Users/${id}`,
        },
      });
      expect(res.body.groups ?? []).toEqual([]);
      resource = res.body;

      const seen = await usersService(d, id);
      expectStatus(seen, 200);
      expect(seen.body).toMatchObject({
        id,
        email,
        first_name: 'Grace',
        last_name: 'Hopper',
        status: 'ACTIVE',
        is_admin: false,
        is_super_admin: false,
        system_domain_id: d.domainId,
      });
      expect((await snapshot(id)).memberships).toEqual([`${d.domainId}:false`]);
    });

    it('3. GET /Users/{id}: the same resource, with its ETag (and with a trailing slash)', async () => {
      const res = await d.scim.get(`/Users/${id}`);
      expectResource(res, 200);
      expect(res.body).toEqual(resource);
      expectStatus(await d.scim.get(`/Users/${id}/`), 200);
      expect(await d.scim.idsOf('/Users', `userName eq "${email}"`)).toEqual([id]);
    });

    it('4. PUT /Users/{id} with the whole resource read back (meta, groups and all): the users service follows', async () => {
      const res = await d.scim.put(`/Users/${id}`, {
        ...resource,
        name: { givenName: 'Grace', familyName: 'Brewster Hopper' },
        displayName: 'Grace B. Hopper',
        groups: [],
      });
      expectResource(res, 200);
      expect(res.body).toMatchObject({
        id,
        userName: email,
        externalId: '00u1okta2abc',
        name: { givenName: 'Grace', familyName: 'Brewster Hopper' },
        displayName: 'Grace B. Hopper',
        active: true,
      });
      expect(res.body.meta.version).not.toBe(resource.meta.version);
      resource = res.body;
      expect((await usersService(d, id)).body).toMatchObject({
        first_name: 'Grace',
        last_name: 'Brewster Hopper',
        status: 'ACTIVE',
      });
    });

    it('5. given a password by the administrator, the provisioned user signs in', async () => {
      await setPassword(d, id);
      const signed = await signIn(email);
      expect(signed.status).toBe(201);
      heldToken = signed.token!;
      const me = await t.http.get(CURRENT).set(bearer(heldToken));
      expectStatus(me, 200);
      expect(me.body).toMatchObject({ id, email, system_domain_id: d.domainId });
    });

    it('6. PATCH {op:"replace", value:{active:false}}: INACTIVE, the held token 401, password sign-in 401', async () => {
      const res = await patchUser(d, id, { op: 'replace', value: { active: false } });
      expectResource(res, 200);
      expect(res.body).toMatchObject({ id, active: false, userName: email });
      expect((await usersService(d, id)).body.status).toBe('INACTIVE');
      expectStatus(await t.http.get(CURRENT).set(bearer(heldToken)), 401);
      expect((await signIn(email)).status).toBe(401);
      expect((await d.scim.get(`/Users/${id}`)).body.active).toBe(false);
    });

    it('7. PATCH {op:"replace", value:{active:true}}: ACTIVE, a new sign-in works; the revoked token stays revoked', async () => {
      const res = await patchUser(d, id, { op: 'replace', value: { active: true } });
      expectResource(res, 200);
      expect(res.body).toMatchObject({ id, active: true });
      expect((await usersService(d, id)).body.status).toBe('ACTIVE');
      const signed = await signIn(email);
      expect(signed.status).toBe(201);
      expectStatus(await t.http.get(CURRENT).set(bearer(signed.token!)), 200);
      expectStatus(await t.http.get(CURRENT).set(bearer(heldToken)), 401);
    });

    it('8. group push: POST /Groups {displayName, members: []}; the users service shows the group', async () => {
      const res = await d.scim.post('/Groups', {
        schemas: [CORE_GROUP],
        displayName: 'Okta Engineers',
        members: [],
      });
      expectResource(res, 201);
      groupId = res.body.id;
      expect(res.body).toMatchObject({
        schemas: [CORE_GROUP],
        id: expect.any(String),
        displayName: 'Okta Engineers',
        meta: { resourceType: 'Group', location: `${base}/Groups/${groupId}` },
      });
      expect(res.body.members ?? []).toEqual([]);
      const seen = await groupsService(d, groupId);
      expectStatus(seen, 200);
      expect(seen.body).toMatchObject({
        id: groupId,
        name: 'Okta Engineers',
        system_domain_id: d.domainId,
        member_ids: [],
        roles: [],
      });
    });

    it('9. PATCH add members (path "members"): a member in the users service, a group of the SCIM user', async () => {
      const res = await patchGroup(d, groupId, {
        op: 'add',
        path: 'members',
        value: [{ value: id, display: email }],
      });
      expectResource(res, 200);
      expect(res.body.members).toEqual([expect.objectContaining({ value: id, display: email })]);
      expect(await memberIds(d, groupId)).toEqual([id]);
      const user = await d.scim.get(`/Users/${id}`);
      expect(user.body.groups).toEqual([
        expect.objectContaining({ value: groupId, display: 'Okta Engineers' }),
      ]);
    });

    it('10. PATCH remove by the filtered path members[value eq "id"]: no longer a member', async () => {
      const res = await patchGroup(d, groupId, { op: 'remove', path: `members[value eq "${id}"]` });
      expectResource(res, 200);
      expect(res.body.members ?? []).toEqual([]);
      expect(await memberIds(d, groupId)).toEqual([]);
      expect((await d.scim.get(`/Users/${id}`)).body.groups ?? []).toEqual([]);
    });

    it('11. renames the group: path "displayName", then Okta’s value object that carries the id', async () => {
      const byPath = await patchGroup(d, groupId, {
        op: 'replace',
        path: 'displayName',
        value: 'Okta Platform',
      });
      expectResource(byPath, 200);
      expect(byPath.body.displayName).toBe('Okta Platform');
      expect((await groupsService(d, groupId)).body.name).toBe('Okta Platform');
      const byValue = await patchGroup(d, groupId, {
        op: 'replace',
        value: { id: groupId, displayName: 'Okta Platform Team' },
      });
      expectResource(byValue, 200);
      expect(byValue.body).toMatchObject({ id: groupId, displayName: 'Okta Platform Team' });
      expect((await groupsService(d, groupId)).body.name).toBe('Okta Platform Team');
    });

    it('12. DELETE /Users/{id}: 204; 404 over SCIM and in the users service; the account is gone', async () => {
      const res = await d.scim.delete(`/Users/${id}`);
      expectStatus(res, 204);
      expectScimError(await d.scim.get(`/Users/${id}`), 404);
      expect(await d.scim.idsOf('/Users', `userName eq "${email}"`)).toEqual([]);
      expectStatus(await usersService(d, id), 404);
      expect(await t.ds.getRepository(UserEntity).findOneBy({ id })).toBeNull();
      expect((await signIn(email)).status).toBe(401);
    });
  });

  // ---- Entra ID --------------------------------------------------------------------------------------------

  describe('an Entra-style provisioning sequence, step by step', () => {
    let d: ScimDomain;
    const tag = randomUUID().slice(0, 8);
    const mixed = `Entra.Person-${tag}@Example.com`;
    const lower = mixed.toLowerCase();
    const moved = `Moved.Person-${tag}@Example.com`;
    const groupName = `Entra Group ${tag}`;
    let id: string;
    let groupId: string;

    beforeAll(async () => {
      d = await scimDomain(t);
    });

    it('1. looks the mixed-case userName up: nothing', async () => {
      const res = await d.scim.get('/Users', { filter: `userName eq "${mixed}"` });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ schemas: [LIST], totalResults: 0 });
    });

    it('2. POST /Users as Entra sends it (enterprise extension, name.formatted, meta): userName lower-cased', async () => {
      const res = await d.scim.post('/Users', {
        schemas: [CORE_USER, ENTERPRISE],
        externalId: randomUUID(),
        userName: mixed,
        active: true,
        displayName: 'Entra Person',
        emails: [{ primary: true, type: 'work', value: mixed }],
        meta: { resourceType: 'User' },
        name: { formatted: 'Entra Person', familyName: 'Person', givenName: 'Entra' },
        [ENTERPRISE]: { department: 'Sales', employeeNumber: '1043' },
      });
      expectResource(res, 201);
      id = res.body.id;
      expect(res.body).toMatchObject({
        userName: lower,
        active: true,
        name: { givenName: 'Entra', familyName: 'Person' },
        emails: [{ value: lower, type: 'work', primary: true }],
        [ENTERPRISE]: { department: 'Sales', employeeNumber: '1043' },
      });
      expect(res.body.schemas).toEqual(expect.arrayContaining([CORE_USER, ENTERPRISE]));
      expect((await usersService(d, id)).body).toMatchObject({
        email: lower,
        first_name: 'Entra',
        last_name: 'Person',
        status: 'ACTIVE',
      });
      // the same lookup now finds it: userName compares case-insensitively
      expect(await d.scim.idsOf('/Users', `userName eq "${mixed}"`)).toEqual([id]);
    });

    it('3. {op:"Replace", path:"active", value:"False"} (a string): INACTIVE; "True" restores it', async () => {
      const off = await patchUser(d, id, { op: 'Replace', path: 'active', value: 'False' });
      expectResource(off, 200);
      expect(off.body.active).toBe(false);
      expect((await usersService(d, id)).body.status).toBe('INACTIVE');
      const on = await patchUser(d, id, { op: 'Replace', path: 'active', value: 'True' });
      expectResource(on, 200);
      expect(on.body.active).toBe(true);
      expect((await usersService(d, id)).body.status).toBe('ACTIVE');
    });

    it('4. {op:"Add"} on the enterprise department path', async () => {
      const res = await patchUser(d, id, { op: 'Add', path: `${ENTERPRISE}:department`, value: 'Eng' });
      expectResource(res, 200);
      expect(res.body[ENTERPRISE]).toMatchObject({ department: 'Eng', employeeNumber: '1043' });
      expect((await d.scim.get(`/Users/${id}`)).body[ENTERPRISE].department).toBe('Eng');
    });

    it('5. {op:"Replace", path:"name.givenName"}, and a value object with a dotted key', async () => {
      const res = await patchUser(d, id, { op: 'Replace', path: 'name.givenName', value: 'New' });
      expectResource(res, 200);
      expect(res.body.name).toMatchObject({ givenName: 'New', familyName: 'Person' });
      expect((await usersService(d, id)).body).toMatchObject({ first_name: 'New', last_name: 'Person' });
      const dotted = await patchUser(d, id, { op: 'Replace', value: { 'name.familyName': 'Dotted' } });
      expectResource(dotted, 200);
      expect(dotted.body.name).toMatchObject({ givenName: 'New', familyName: 'Dotted' });
      expect((await usersService(d, id)).body).toMatchObject({ first_name: 'New', last_name: 'Dotted' });
    });

    it('6. {op:"Replace", path:"emails[type eq \\"work\\"].value"}: the email changes, userName lower-cased', async () => {
      const res = await patchUser(d, id, {
        op: 'Replace',
        path: 'emails[type eq "work"].value',
        value: moved,
      });
      expectResource(res, 200);
      expect(res.body).toMatchObject({
        userName: moved.toLowerCase(),
        emails: [{ value: moved.toLowerCase(), type: 'work', primary: true }],
      });
      expect((await usersService(d, id)).body.email).toBe(moved.toLowerCase());
      expect(await d.scim.idsOf('/Users', `userName eq "${mixed}"`)).toEqual([]);
      expect(await d.scim.idsOf('/Users', `userName eq "${moved}"`)).toEqual([id]);
    });

    it('7. Groups: looks the name up (excludedAttributes=members), POST, {op:"Add", path:"members"}', async () => {
      const lookup = await d.scim.get('/Groups', {
        excludedAttributes: 'members',
        filter: `displayName eq "${groupName}"`,
      });
      expectStatus(lookup, 200);
      expect(lookup.body).toMatchObject({ schemas: [LIST], totalResults: 0 });
      const created = await d.scim.post('/Groups', {
        schemas: [CORE_GROUP],
        externalId: randomUUID(),
        displayName: groupName,
        members: [],
      });
      expectResource(created, 201);
      groupId = created.body.id;
      const added = await patchGroup(d, groupId, { op: 'Add', path: 'members', value: [{ value: id }] });
      expectResource(added, 200);
      expect(added.body.members).toEqual([expect.objectContaining({ value: id })]);
      expect(await memberIds(d, groupId)).toEqual([id]);
    });

    it('8. GET /Groups?filter=displayName eq …&excludedAttributes=members: the group, without members', async () => {
      const res = await d.scim.get('/Groups', {
        filter: `displayName eq "${groupName}"`,
        excludedAttributes: 'members',
      });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ schemas: [LIST], totalResults: 1 });
      expect(res.body.Resources).toHaveLength(1);
      expect(res.body.Resources[0]).toMatchObject({ id: groupId, displayName: groupName });
      expect(res.body.Resources[0]).not.toHaveProperty('members');
      // without the exclusion the member shows
      const full = await d.scim.get('/Groups', { filter: `displayName eq "${groupName}"` });
      expect(full.body.Resources[0].members).toEqual([expect.objectContaining({ value: id })]);
    });

    it('9. {op:"Remove", path:"members", value:[{value:id}]}: no longer a member', async () => {
      const res = await patchGroup(d, groupId, { op: 'Remove', path: 'members', value: [{ value: id }] });
      expectResource(res, 200);
      expect(res.body.members ?? []).toEqual([]);
      expect(await memberIds(d, groupId)).toEqual([]);
    });

    it('10. {op:"Replace", value:{displayName}} renames the group', async () => {
      const res = await patchGroup(d, groupId, { op: 'Replace', value: { displayName: `${groupName} B` } });
      expectResource(res, 200);
      expect(res.body.displayName).toBe(`${groupName} B`);
      expect((await groupsService(d, groupId)).body.name).toBe(`${groupName} B`);
    });

    it('11. DELETE the group and the user: 204 each, then 404 everywhere', async () => {
      expectStatus(await d.scim.delete(`/Groups/${groupId}`), 204);
      expectScimError(await d.scim.get(`/Groups/${groupId}`), 404);
      expectStatus(await groupsService(d, groupId), 404);
      expectStatus(await d.scim.delete(`/Users/${id}`), 204);
      expectScimError(await d.scim.get(`/Users/${id}`), 404);
      expectStatus(await usersService(d, id), 404);
    });
  });

  // ---- accounts a domain's token does not own --------------------------------------------------------------

  describe('refusals: accounts the domain does not own alone', () => {
    let d: ScimDomain;
    /** by case name; filled in beforeAll */
    const accounts: Record<string, UserEntity> = {};

    beforeAll(async () => {
      d = await scimDomain(t);
      const other = (await createDomain(t)).id;
      const third = (await createDomain(t)).id;
      accounts['a super administrator (ADMIN_EMAIL)'] = t.admin;
      accounts['a member of another domain'] = await createUser(t, { domainId: other });
      accounts['a user of two other domains'] = await createUser(t, { domainId: other, alsoIn: [third] });
      accounts['a shared account, member of this domain too'] = await createUser(t, {
        domainId: other,
        alsoIn: [d.domainId],
      });
      accounts['a super administrator who is a member here'] = await createUser(t, {
        domainId: d.domainId,
        isSuperAdmin: true,
      });
      accounts['an existing user of this domain'] = await createUser(t, { domainId: d.domainId });
    });

    it('races: one new email POSTed at once five times by each of two domains → one 201, nine 409 uniqueness, one account', async () => {
      // two domains of their own: the winner's account must not show in this describe's domain
      const [one, rival] = [await scimDomain(t), await scimDomain(t)];
      const email = `race-${randomUUID().slice(0, 8)}@example.com`;
      const answers = await Promise.all(
        [...Array(10).keys()].map((i) => (i % 2 ? rival : one).scim.post('/Users', scimUser(email))),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses).toEqual([201, ...Array(9).fill(409)]);
      for (const r of answers.filter((x) => x.status === 409)) expect(r.body.scimType).toBe('uniqueness');
      const rows = await t.ds.getRepository(UserEntity).findBy({ email });
      expect(rows).toHaveLength(1);
      const memberships = await t.ds.getRepository(UserSystemDomainEntity).findBy({ user_id: rows[0].id });
      expect(memberships).toHaveLength(1);
    });

    it('the super administrator of the test app is ADMIN_EMAIL', () => {
      expect(t.admin.email).toBe(ADMIN_EMAIL);
    });

    it.each([
      'a super administrator (ADMIN_EMAIL)',
      'a member of another domain',
      'a user of two other domains',
      'a shared account, member of this domain too',
      'an existing user of this domain',
    ])('POST /Users with the email of %s → 409 uniqueness (in any case), nothing changes', async (name) => {
      const account = accounts[name];
      const before = await snapshot(account.id);
      for (const userName of [account.email, account.email.toUpperCase()]) {
        const res = await d.scim.post(
          '/Users',
          scimUser(userName, { givenName: 'Mallory', familyName: 'Taken', active: false }),
        );
        expectScimError(res, 409, 'uniqueness');
      }
      expect(await snapshot(account.id)).toEqual(before);
      expect(await t.ds.getRepository(UserEntity).countBy({ email: account.email })).toBe(1);
    });

    it.each([
      'a super administrator (ADMIN_EMAIL)',
      'a member of another domain',
      'a user of two other domains',
      'a shared account, member of this domain too',
      'a super administrator who is a member here',
    ])('%s: absent from lists, 404 by id, PUT/PATCH/DELETE 404, untouched', async (name) => {
      const account = accounts[name];
      const before = await snapshot(account.id);
      expectScimError(await d.scim.get(`/Users/${account.id}`), 404);
      expect(await d.scim.idsOf('/Users', `userName eq "${account.email}"`)).toEqual([]);
      expect(await d.scim.idsOf('/Users', `id eq "${account.id}"`)).toEqual([]);
      expectScimError(
        await d.scim.put(
          `/Users/${account.id}`,
          scimUser(account.email, { givenName: 'Taken', active: false }),
        ),
        404,
      );
      expectScimError(await patchUser(d, account.id, { op: 'replace', value: { active: false } }), 404);
      expectScimError(
        await patchUser(d, account.id, { op: 'replace', path: 'name.givenName', value: 'Taken' }),
        404,
      );
      expectScimError(await d.scim.delete(`/Users/${account.id}`), 404);
      expect(await snapshot(account.id)).toEqual(before);
    });

    it('the full list is exactly the accounts this domain owns alone (its administrator, its own user)', async () => {
      const res = await d.scim.get('/Users', { count: 200 });
      expectStatus(res, 200);
      const ids = (res.body.Resources as { id: string }[]).map((r) => r.id).sort();
      expect(ids).toEqual([d.admin.id, accounts['an existing user of this domain'].id].sort());
      expect(res.body.totalResults).toBe(2);
    });

    it('a userName change to a taken email (PATCH, PUT) → 409 uniqueness; nothing changes', async () => {
      const mine = await provision(d.scim, emailOf('renamer'));
      const before = await snapshot(mine.id);
      const taken = accounts['a member of another domain'].email;
      expectScimError(
        await patchUser(d, mine.id, { op: 'replace', path: 'userName', value: taken.toUpperCase() }),
        409,
        'uniqueness',
      );
      expectScimError(
        await d.scim.put(`/Users/${mine.id}`, { ...mine, userName: ADMIN_EMAIL, name: { givenName: 'X' } }),
        409,
        'uniqueness',
      );
      expect(await snapshot(mine.id)).toEqual(before);
    });

    it('groups show only members SCIM sees; PUT/PATCH keep the others; adding one it cannot see → 400 invalidValue', async () => {
      const shared = accounts['a shared account, member of this domain too'];
      const mine = await provision(d.scim, emailOf('grouped'));
      const created = await d.scim.post('/Groups', { schemas: [CORE_GROUP], displayName: unique('mixed') });
      expectResource(created, 201);
      const gid: string = created.body.id;
      expectScimError(
        await patchGroup(d, gid, { op: 'add', path: 'members', value: [{ value: shared.id }] }),
        400,
        'invalidValue',
      );
      expectScimError(
        await patchGroup(d, gid, { op: 'add', path: 'members', value: [{ value: t.admin.id }] }),
        400,
        'invalidValue',
      );
      expect(await memberIds(d, gid)).toEqual([]);
      // the administrator adds the shared account through the users service
      expectStatus(await t.http.post(`${GROUPS}/${gid}/members/${shared.id}/`).set(d.adminH), 201);
      const read = await d.scim.get(`/Groups/${gid}`);
      expect(read.body.members ?? []).toEqual([]);
      const put = await d.scim.put(`/Groups/${gid}`, {
        schemas: [CORE_GROUP],
        displayName: created.body.displayName,
        members: [{ value: mine.id }],
      });
      expectResource(put, 200);
      expect(put.body.members).toEqual([expect.objectContaining({ value: mine.id })]);
      expect(await memberIds(d, gid)).toEqual([mine.id, shared.id].sort());
      // removing every member removes the ones SCIM sees
      expectResource(await patchGroup(d, gid, { op: 'remove', path: 'members' }), 200);
      expect(await memberIds(d, gid)).toEqual([shared.id]);
      const emptied = await d.scim.put(`/Groups/${gid}`, {
        schemas: [CORE_GROUP],
        displayName: created.body.displayName,
        members: [],
      });
      expectResource(emptied, 200);
      expect(await memberIds(d, gid)).toEqual([shared.id]);
    });

    it('a taken displayName → 409 uniqueness', async () => {
      const name = unique('taken');
      expectResource(await d.scim.post('/Groups', { schemas: [CORE_GROUP], displayName: name }), 201);
      expectScimError(
        await d.scim.post('/Groups', { schemas: [CORE_GROUP], displayName: name }),
        409,
        'uniqueness',
      );
    });

    it('a group carrying roles the administrator does not hold (system roles) → 403 on any change, untouched', async () => {
      const member = await provision(d.scim, emailOf('sysmember'));
      const group = await t.ds
        .getRepository(GroupEntity)
        .save({ system_domain_id: d.domainId, name: unique('system'), roles: ['can_read_system_domains'] });
      const before = await t.ds.getRepository(GroupEntity).findOneByOrFail({ id: group.id });
      expectScimError(
        await patchGroup(d, group.id, { op: 'add', path: 'members', value: [{ value: member.id }] }),
        403,
      );
      expectScimError(
        await patchGroup(d, group.id, { op: 'replace', path: 'displayName', value: 'renamed' }),
        403,
      );
      expectScimError(
        await d.scim.put(`/Groups/${group.id}`, {
          schemas: [CORE_GROUP],
          displayName: 'renamed',
          members: [{ value: member.id }],
        }),
        403,
      );
      expectScimError(await d.scim.delete(`/Groups/${group.id}`), 403);
      expect(await t.ds.getRepository(GroupEntity).findOneByOrFail({ id: group.id })).toEqual(before);
      expect(await memberIds(d, group.id)).toEqual([]);
    });

    it('no seat left → 403, nothing created', async () => {
      const full = await createDomain(t, {
        billing_limits: { standard_users: 1, browse_users: null, power_users: null },
      });
      const s = await scimDomain(t, full.id); // its administrator holds the one seat
      const email = emailOf('seatless');
      expectScimError(await s.scim.post('/Users', scimUser(email)), 403);
      expect(await t.ds.getRepository(UserEntity).countBy({ email })).toBe(0);
    });

    it('active:false creates the account INACTIVE: it cannot sign in', async () => {
      const email = emailOf('dormant');
      const res = await d.scim.post('/Users', scimUser(email, { active: false }));
      expectResource(res, 201);
      expect(res.body.active).toBe(false);
      expect((await usersService(d, res.body.id)).body.status).toBe('INACTIVE');
      await setPassword(d, res.body.id);
      expect((await signIn(email)).status).toBe(401);
    });
  });

  // ---- provisioning tokens ---------------------------------------------------------------------------------

  describe('provisioning tokens', () => {
    it('POST: 201 {id, token, base_url, date_created, expires}; stored as its SHA-256 digest, kind SCIM, under the built-in app', async () => {
      const domainId = (await createDomain(t)).id;
      const admin = await createUser(t, { domainId, isAdmin: true });
      const adminH = bearer((await tokenFor(t, admin)).token);
      const res = await t.http.post(SCIM_TOKENS).set(adminH).send({ expires_in: 86400 });
      expectStatus(res, 201);
      expect(Object.keys(res.body).sort()).toEqual(['base_url', 'date_created', 'expires', 'id', 'token']);
      expect(res.body).toEqual({
        id: expect.any(String),
        token: expect.any(String),
        base_url: base,
        date_created: expect.any(String),
        expires: expect.any(String),
      });
      const lifetime = Date.parse(res.body.expires) - Date.parse(res.body.date_created);
      expect(Math.abs(lifetime - 86400_000)).toBeLessThan(10_000);
      const row = await t.ds
        .getRepository(TokenEntity)
        .createQueryBuilder('t')
        .addSelect('t.token_hash')
        .where('t.id = :id', { id: res.body.id })
        .getOneOrFail();
      const builtin = await t.ds
        .getRepository(AppEntity)
        .findOneByOrFail({ system_domain_id: domainId, is_builtin: true });
      expect(row).toMatchObject({
        kind: 'SCIM',
        user_id: admin.id,
        app_id: builtin.id,
        system_domain_id: domainId,
        token_hash: sha256Hex(res.body.token),
        revoked_at: null,
      });
      // the default lifetime is a year
      const byDefault = await t.http.post(SCIM_TOKENS).set(adminH).send({});
      expectStatus(byDefault, 201);
      const year = Date.parse(byDefault.body.expires) - Date.parse(byDefault.body.date_created);
      expect(Math.abs(year - 31_536_000_000)).toBeLessThan(10_000);
      // and the token works
      const scim = new ScimClient(t, res.body.token);
      expectStatus(await scim.get('/Users'), 200);
    });

    it.each([85_399, 86_399, 63_072_001, 'soon', -1])('expires_in %j → 400 {errors}', async (expiresIn) => {
      const admin = await createUser(t, { isAdmin: true, domainId: (await createDomain(t)).id });
      const res = await t.http
        .post(SCIM_TOKENS)
        .set(bearer((await tokenFor(t, admin)).token))
        .send({ expires_in: expiresIn });
      expectStatus(res, 400);
      expect(Object.keys(res.body)).toEqual(['errors']);
    });

    it('GET lists the domain’s tokens without their secrets', async () => {
      const d = await scimDomain(t);
      const second = await t.http.post(SCIM_TOKENS).set(d.adminH).send({ expires_in: 86400 });
      expectStatus(second, 201);
      const res = await t.http.get(SCIM_TOKENS).set(d.adminH);
      expectStatus(res, 200);
      expect(res.body.total).toBe(2);
      const objects = res.body.objects as Record<string, unknown>[];
      expect(objects.map((o) => o.id).sort()).toEqual([d.tokenId, second.body.id].sort());
      for (const o of objects) {
        expect(o).toMatchObject({ date_created: expect.any(String), expires: expect.any(String) });
        expect(o).toHaveProperty('last_used');
        expect(JSON.stringify(o.created_by)).toContain(d.admin.id);
        expect(o).not.toHaveProperty('token');
      }
      const text = JSON.stringify(res.body);
      expect(text).not.toContain(d.scim.token);
      expect(text).not.toContain(second.body.token);
      // another domain's list does not show them
      const other = await scimDomain(t);
      const theirs = await t.http.get(SCIM_TOKENS).set(other.adminH);
      expect((theirs.body.objects as { id: string }[]).map((o) => o.id)).toEqual([other.tokenId]);
    });

    it('DELETE: 204, and the token answers 401 with the SCIM error body at once; an unknown id → 404', async () => {
      const d = await scimDomain(t);
      expectStatus(await d.scim.get('/Users'), 200);
      expectStatus(await t.http.delete(`${SCIM_TOKENS}${d.tokenId}/`).set(d.adminH), 204);
      expectScimError(await d.scim.get('/Users'), 401);
      expectScimError(await d.scim.post('/Users', scimUser(emailOf('revoked'))), 401);
      expectStatus(await t.http.delete(`${SCIM_TOKENS}${randomUUID()}/`).set(d.adminH), 404);
      // another domain's administrator cannot revoke a token: 404, and it keeps working
      const a = await scimDomain(t);
      const b = await scimDomain(t);
      expectStatus(await t.http.delete(`${SCIM_TOKENS}${b.tokenId}/`).set(a.adminH), 404);
      expectStatus(await b.scim.get('/Users'), 200);
    });

    it('an expired token → 401', async () => {
      const d = await scimDomain(t);
      const short = await t.http.post(SCIM_TOKENS).set(d.adminH).send({ expires_in: 86400 });
      expectStatus(short, 201);
      const scim = new ScimClient(t, short.body.token);
      expectStatus(await scim.get('/Users'), 200);
      clock.advance(86_400_000 + 60_000);
      expectScimError(await scim.get('/Users'), 401);
    });

    it('acts for its creator: a demoted or deactivated creator’s token is refused', async () => {
      const d = await scimDomain(t);
      const other = await createUser(t, { domainId: d.domainId, isAdmin: true });
      const otherH = bearer((await tokenFor(t, other)).token);
      expectStatus(await d.scim.get('/Users'), 200);
      expectStatus(await t.http.patch(`${USERS}/${d.admin.id}/`).set(otherH).send({ is_admin: false }), 200);
      const demoted = await d.scim.get('/Users');
      expect([401, 403]).toContain(demoted.status);
      expectScimError(demoted, demoted.status);

      const e = await scimDomain(t);
      const peer = await createUser(t, { domainId: e.domainId, isAdmin: true });
      const peerH = bearer((await tokenFor(t, peer)).token);
      expectStatus(
        await t.http.patch(`${USERS}/${e.admin.id}/`).set(peerH).send({ status: 'INACTIVE' }),
        200,
      );
      const deactivated = await e.scim.get('/Users');
      expect([401, 403]).toContain(deactivated.status);
      expectScimError(deactivated, deactivated.status);
    });

    it('a SCIM token on any other route → 401 {errors}, the token routes included', async () => {
      const d = await scimDomain(t);
      for (const res of [
        await t.http.get(CURRENT).set(bearer(d.scim.token)),
        await t.http.get(VALIDATE).set(bearer(d.scim.token)),
        await t.http.get(`${USERS}/`).set(bearer(d.scim.token)),
        await t.http.get(SCIM_TOKENS).set(bearer(d.scim.token)),
        await t.http.post(SCIM_TOKENS).set(bearer(d.scim.token)).send({}),
      ]) {
        expectStatus(res, 401);
        expect(Object.keys(res.body)).toEqual(['errors']);
      }
    });

    it('a member who is not an administrator cannot create one (403); no credential → 401', async () => {
      const domainId = (await createDomain(t)).id;
      const member = await createUser(t, {
        domainId,
        roles: ['can_read_users', 'can_write_users', 'can_read_tokens'],
      });
      const res = await t.http
        .post(SCIM_TOKENS)
        .set(bearer((await tokenFor(t, member)).token))
        .send({});
      expectStatus(res, 403);
      expect(await t.ds.getRepository(TokenEntity).countBy({ user_id: member.id, kind: 'SCIM' })).toBe(0);
      expectStatus(await t.http.post(SCIM_TOKENS).send({}), 401);
    });

    it('/API/scim/v2 refuses a login token, a PAT, no token and a forged one: 401 with the SCIM error body', async () => {
      const d = await scimDomain(t);
      const login = (await tokenFor(t, d.admin)).token;
      const pat = (await tokenFor(t, d.admin, { kind: 'PAT' })).token;
      for (const token of [login, pat, `${d.scim.token.slice(0, -4)}AAAA`, 'not-a-token']) {
        expectScimError(await new ScimClient(t, token).get('/Users'), 401);
      }
      expectScimError(await t.http.get(`${SCIM}/Users`), 401);
      expectScimError(await t.http.get(`${SCIM}/ServiceProviderConfig`), 401);
    });

    it('a token of domain A never sees domain B’s users or groups; B untouched', async () => {
      const a = await scimDomain(t);
      const b = await scimDomain(t);
      const bUser = await provision(b.scim, emailOf('tenant-b'), { givenName: 'Bea' });
      const bGroup = await b.scim.post('/Groups', {
        schemas: [CORE_GROUP],
        displayName: unique('b-group'),
        members: [{ value: bUser.id }],
      });
      expectResource(bGroup, 201);
      const before = await snapshot(bUser.id);
      expectScimError(await a.scim.get(`/Users/${bUser.id}`), 404);
      expect(await a.scim.idsOf('/Users', `userName eq "${bUser.userName}"`)).toEqual([]);
      const all = await a.scim.get('/Users', { count: 200 });
      expect((all.body.Resources as { id: string }[]).map((r) => r.id)).not.toContain(bUser.id);
      expectScimError(await patchUser(a, bUser.id, { op: 'replace', value: { active: false } }), 404);
      expectScimError(await a.scim.put(`/Users/${bUser.id}`, { ...bUser, active: false }), 404);
      expectScimError(await a.scim.delete(`/Users/${bUser.id}`), 404);
      expectScimError(await a.scim.get(`/Groups/${bGroup.body.id}`), 404);
      expect(await a.scim.idsOf('/Groups', `displayName eq "${bGroup.body.displayName}"`)).toEqual([]);
      expectScimError(
        await patchGroup(a, bGroup.body.id, { op: 'remove', path: `members[value eq "${bUser.id}"]` }),
        404,
      );
      expectScimError(await a.scim.delete(`/Groups/${bGroup.body.id}`), 404);
      // nor can A put B's user in A's group
      const aGroup = await a.scim.post('/Groups', { schemas: [CORE_GROUP], displayName: unique('a-group') });
      expectScimError(
        await patchGroup(a, aGroup.body.id, { op: 'add', path: 'members', value: [{ value: bUser.id }] }),
        400,
        'invalidValue',
      );
      expect(await snapshot(bUser.id)).toEqual(before);
      expect((await b.scim.get(`/Users/${bUser.id}`)).body).toMatchObject({
        active: true,
        name: { givenName: 'Bea' },
      });
      expect(await memberIds(b, bGroup.body.id)).toEqual([bUser.id]);
    });
  });

  // ---- discovery -------------------------------------------------------------------------------------------

  describe('discovery', () => {
    let d: ScimDomain;
    beforeAll(async () => {
      d = await scimDomain(t);
    });

    it('GET /ServiceProviderConfig', async () => {
      const res = await d.scim.get('/ServiceProviderConfig');
      expectStatus(res, 200);
      expect(res.headers['content-type']).toMatch(SCIM_MEDIA);
      expect(res.body).toMatchObject({
        patch: { supported: true },
        filter: { supported: true, maxResults: 200 },
        etag: { supported: true },
        bulk: { supported: false },
        sort: { supported: false },
        changePassword: { supported: false },
      });
      expect(res.body.authenticationSchemes[0]).toMatchObject({ type: 'oauthbearertoken' });
    });

    it('GET /ResourceTypes, /ResourceTypes/User, /Schemas, /Schemas/{urn}', async () => {
      const types = await d.scim.get('/ResourceTypes');
      expectStatus(types, 200);
      expect(types.body).toMatchObject({ schemas: [LIST], totalResults: 2 });
      const byName = Object.fromEntries(
        (types.body.Resources as { name: string }[]).map((r) => [r.name, r as Record<string, any>]),
      );
      expect(Object.keys(byName).sort()).toEqual(['Group', 'User']);
      expect(byName.User).toMatchObject({ schema: CORE_USER, endpoint: '/Users' });
      expect(byName.User.schemaExtensions).toEqual([expect.objectContaining({ schema: ENTERPRISE })]);
      expect(byName.Group).toMatchObject({ schema: CORE_GROUP, endpoint: '/Groups' });
      const user = await d.scim.get('/ResourceTypes/User');
      expectStatus(user, 200);
      expect(user.body).toMatchObject({ name: 'User', schema: CORE_USER });
      const schemas = await d.scim.get('/Schemas');
      expectStatus(schemas, 200);
      expect(schemas.body.schemas).toEqual([LIST]);
      expect((schemas.body.Resources as { id: string }[]).map((s) => s.id)).toEqual(
        expect.arrayContaining([CORE_USER, CORE_GROUP, ENTERPRISE]),
      );
      const one = await d.scim.get(`/Schemas/${CORE_USER}`);
      expectStatus(one, 200);
      expect(one.body.id).toBe(CORE_USER);
      expect((one.body.attributes as { name: string }[]).map((a) => a.name)).toEqual(
        expect.arrayContaining(['userName', 'name', 'active', 'emails']),
      );
      expectScimError(await d.scim.get('/Schemas/urn:nothing:here'), 404);
    });
  });

  // ---- filters and pagination ------------------------------------------------------------------------------

  describe('filters and pagination', () => {
    let d: ScimDomain;
    const tag = randomUUID().slice(0, 6);
    /** name → id */
    const ids: Record<string, string> = {};
    const paged: string[] = [];
    const sortedIds = (...names: string[]) => names.map((n) => ids[n]).sort();

    beforeAll(async () => {
      d = await scimDomain(t);
      const people: [string, string, string, string, boolean][] = [
        ['alpha', `f-alpha-${tag}@filters.test`, 'Alice', 'Zed', true],
        ['bravo', `f-bravo-${tag}@filters.test`, 'Bob', 'Young', false],
        ['charlie', `f-charlie-${tag}@other.test`, 'Carol', 'Xu', true],
      ];
      for (const [name, email, givenName, familyName, active] of people) {
        const ext = `ext-${['alpha', 'bravo', 'charlie'].indexOf(name) + 1}`;
        ids[name] = (await provision(d.scim, email, { givenName, familyName, active, externalId: ext })).id;
      }
      for (let i = 1; i <= 5; i++) paged.push((await provision(d.scim, `pg-${i}-${tag}@paging.test`)).id);
    });

    it.each([
      [`userName co "bravo"`, ['bravo']],
      [`userName sw "f-a"`, ['alpha']],
      [`userName ew "@other.test"`, ['charlie']],
      ['externalId pr', ['alpha', 'bravo', 'charlie']],
      [`userName sw "f-" and active eq true`, ['alpha', 'charlie']],
      [`externalId eq "ext-1" or externalId eq "ext-3"`, ['alpha', 'charlie']],
      [`userName sw "f-" and not (active eq true)`, ['bravo']],
      [`(externalId eq "ext-1" or externalId eq "ext-2") and active eq false`, ['bravo']],
      ['active eq false', ['bravo']],
      [`name.givenName eq "Carol"`, ['charlie']],
      [`name.familyName sw "Y"`, ['bravo']],
      [`displayName eq "Alice Zed"`, ['alpha']],
      [`emails[type eq "work"].value eq "F-ALPHA-${tag}@FILTERS.TEST"`, ['alpha']],
      [`emails.value co "other.test"`, ['charlie']],
      [`userName eq "F-BRAVO-${tag}@Filters.Test"`, ['bravo']],
      [`userName ne "f-alpha-${tag}@filters.test" and externalId pr`, ['bravo', 'charlie']],
      [`externalId gt "ext-1"`, ['bravo', 'charlie']],
      [`externalId le "ext-2"`, ['alpha', 'bravo']],
      [`externalId ge "ext-3"`, ['charlie']],
      [`externalId lt "ext-1"`, []],
    ])('filter %s', async (filter, expected) => {
      expect(await d.scim.idsOf('/Users', filter)).toEqual(sortedIds(...expected));
    });

    it('filter id eq', async () => {
      expect(await d.scim.idsOf('/Users', `id eq "${ids.charlie}"`)).toEqual([ids.charlie]);
    });

    it('startIndex and count: totalResults, itemsPerPage, startIndex; the pages cover every match once', async () => {
      const filter = `userName ew "@paging.test"`;
      const seen: string[] = [];
      for (const [startIndex, n] of [
        [1, 2],
        [3, 2],
        [5, 1],
      ]) {
        const res = await d.scim.get('/Users', { filter, startIndex, count: 2 });
        expectStatus(res, 200);
        expect(res.body).toMatchObject({ schemas: [LIST], totalResults: 5, itemsPerPage: n, startIndex });
        expect(res.body.Resources).toHaveLength(n);
        seen.push(...(res.body.Resources as { id: string }[]).map((r) => r.id));
      }
      expect(seen.sort()).toEqual([...paged].sort());
      const past = await d.scim.get('/Users', { filter, startIndex: 6, count: 2 });
      expect(past.body).toMatchObject({ totalResults: 5, itemsPerPage: 0, startIndex: 6 });
      expect(past.body.Resources ?? []).toEqual([]);
    });

    it('count=0 → totalResults only', async () => {
      const res = await d.scim.get('/Users', { filter: `userName ew "@paging.test"`, count: 0 });
      expectStatus(res, 200);
      expect(res.body).toMatchObject({ schemas: [LIST], totalResults: 5, itemsPerPage: 0 });
      expect(res.body.Resources ?? []).toEqual([]);
    });

    it('attributes=userName: id and userName, no name; excludedAttributes=emails drops emails only', async () => {
      const res = await d.scim.get('/Users', { filter: `id eq "${ids.alpha}"`, attributes: 'userName' });
      expectStatus(res, 200);
      const [only] = res.body.Resources;
      expect(only).toMatchObject({ id: ids.alpha, userName: `f-alpha-${tag}@filters.test` });
      expect(only).not.toHaveProperty('name');
      expect(only).not.toHaveProperty('emails');
      expect(only).not.toHaveProperty('active');
      const one = await d.scim.get(`/Users/${ids.alpha}`, { attributes: 'userName' });
      expectStatus(one, 200);
      expect(one.body).toMatchObject({ id: ids.alpha, userName: `f-alpha-${tag}@filters.test` });
      expect(one.body).not.toHaveProperty('name');
      const without = await d.scim.get(`/Users/${ids.alpha}`, { excludedAttributes: 'emails' });
      expectStatus(without, 200);
      expect(without.body).toMatchObject({ id: ids.alpha, name: { givenName: 'Alice' } });
      expect(without.body).not.toHaveProperty('emails');
    });

    it.each([
      'userName eq',
      'userName zz "x"',
      '(userName eq "x"',
      'userName eq "x" and',
      'userName eq "unterminated',
      'and or not',
      'userName eq "x")',
    ])('a malformed filter %j → 400 invalidFilter', async (filter) => {
      expectScimError(await d.scim.get('/Users', { filter }), 400, 'invalidFilter');
    });
  });

  // ---- ETags -----------------------------------------------------------------------------------------------

  describe('ETags (If-Match)', () => {
    let d: ScimDomain;
    beforeAll(async () => {
      d = await scimDomain(t);
    });

    it('GET carries ETag = meta.version; a stale If-Match → 412 and nothing changes; the current one → 200', async () => {
      const user = await provision(d.scim, emailOf('etag'), { givenName: 'First' });
      const read = await d.scim.get(`/Users/${user.id}`);
      expectResource(read, 200);
      const v1: string = read.body.meta.version;
      const changed = await patchUser(d, user.id, { op: 'replace', path: 'name.givenName', value: 'Second' });
      expectResource(changed, 200);
      const v2: string = changed.body.meta.version;
      expect(v2).not.toBe(v1);
      const before = await snapshot(user.id);

      const stalePut = await d.scim.put(
        `/Users/${user.id}`,
        { ...read.body, name: { givenName: 'Stale', familyName: 'Write' } },
        { 'If-Match': v1 },
      );
      expectScimError(stalePut, 412);
      expectScimError(
        await d.scim.patch(`/Users/${user.id}`, [{ op: 'replace', value: { active: false } }], {
          'If-Match': v1,
        }),
        412,
      );
      expectScimError(await d.scim.delete(`/Users/${user.id}`, { 'If-Match': v1 }), 412);
      expect(await snapshot(user.id)).toEqual(before);
      const still = await d.scim.get(`/Users/${user.id}`);
      expect(still.body).toMatchObject({
        active: true,
        name: { givenName: 'Second' },
        meta: { version: v2 },
      });

      const current = await d.scim.put(
        `/Users/${user.id}`,
        { ...still.body, name: { givenName: 'Third', familyName: 'Write' } },
        { 'If-Match': v2 },
      );
      expectResource(current, 200);
      expect(current.body.name).toMatchObject({ givenName: 'Third', familyName: 'Write' });
      expect(current.body.meta.version).not.toBe(v2);
      expectStatus(await d.scim.delete(`/Users/${user.id}`, { 'If-Match': current.body.meta.version }), 204);
    });

    it('groups carry ETags too', async () => {
      const created = await d.scim.post('/Groups', { schemas: [CORE_GROUP], displayName: unique('etag') });
      expectResource(created, 201);
      const read = await d.scim.get(`/Groups/${created.body.id}`);
      expectResource(read, 200);
      expect(read.body.meta.version).toBe(created.body.meta.version);
    });
  });

  // ---- audit trail and webhook events ----------------------------------------------------------------------

  describe('audit trail and webhook events', () => {
    let d: ScimDomain;
    beforeAll(async () => {
      d = await scimDomain(t);
    });

    it('create, update, delete: user.created / user.changed / user.deleted and create/update/delete events', async () => {
      const email = emailOf('audited');
      const created = await d.scim.post('/Users', scimUser(email));
      expectResource(created, 201);
      const id: string = created.body.id;
      const changed = await patchUser(d, id, { op: 'replace', path: 'name.givenName', value: 'Audited' });
      expectResource(changed, 200);
      const deleted = await d.scim.delete(`/Users/${id}`);
      expectStatus(deleted, 204);

      for (const [action, res] of [
        ['user.created', created],
        ['user.changed', changed],
        ['user.deleted', deleted],
      ] as const) {
        const records = await auditOf(d, action, id);
        expect(records).toHaveLength(1);
        expect(records[0]).toMatchObject({
          action,
          system_domain_id: d.domainId,
          target_type: 'user',
          target_id: id,
          outcome: 'success',
          actor: { user_id: d.admin.id },
          request_id: res.headers['x-request-id'],
        });
      }
      const events = recorded.filter((e) => e.objectId === id);
      expect(events.map((e) => [e.realm, e.eventType, e.operation, e.systemDomainId])).toEqual([
        ['user', 'users', 'create', d.domainId],
        ['user', 'users', 'update', d.domainId],
        ['user', 'users', 'delete', d.domainId],
      ]);
      expect(events.map((e) => e.requestId)).toEqual(
        [created, changed, deleted].map((r) => r.headers['x-request-id']),
      );
      // no audit record or event carries the token
      expect(JSON.stringify(events)).not.toContain(d.scim.token);
    });

    it('group changes: group.changed records and groups events (group, group_member)', async () => {
      const member = await provision(d.scim, emailOf('group-audit'));
      const created = await d.scim.post('/Groups', { schemas: [CORE_GROUP], displayName: unique('audit') });
      expectResource(created, 201);
      const gid: string = created.body.id;
      expectResource(
        await patchGroup(d, gid, { op: 'add', path: 'members', value: [{ value: member.id }] }),
        200,
      );
      expectResource(
        await patchGroup(d, gid, { op: 'remove', path: `members[value eq "${member.id}"]` }),
        200,
      );
      expectStatus(await d.scim.delete(`/Groups/${gid}`), 204);
      expect((await auditOf(d, 'group.changed', gid)).length).toBeGreaterThanOrEqual(4);
      const events = recorded.filter((e) => e.objectId === gid);
      expect(events.every((e) => e.eventType === 'groups' && e.systemDomainId === d.domainId)).toBe(true);
      expect(events.map((e) => [e.realm, e.operation])).toEqual(
        expect.arrayContaining([
          ['group', 'create'],
          ['group_member', 'create'],
          ['group_member', 'delete'],
          ['group', 'delete'],
        ]),
      );
    });

    it('a refused create (409) records nothing', async () => {
      const other = await createUser(t, { domainId: (await createDomain(t)).id });
      const count = recorded.length;
      const res = await d.scim.post('/Users', scimUser(other.email));
      expectScimError(res, 409, 'uniqueness');
      expect(recorded.length).toBe(count);
      const audit = await t.http.get(AUDIT).set(d.adminH).query({ action: 'user.created', per_page: 1000 });
      expect(
        (audit.body.objects as { request_id: string }[]).filter(
          (o) => o.request_id === res.headers['x-request-id'],
        ),
      ).toEqual([]);
    });
  });

  // ---- hostile input ---------------------------------------------------------------------------------------

  describe('hostile input', () => {
    let d: ScimDomain;
    let target: Record<string, any>;
    beforeAll(async () => {
      d = await scimDomain(t);
      target = await provision(d.scim, emailOf('target'));
    });

    it.each([
      [[{ op: 'frobnicate', path: 'active', value: false }]],
      [[{ op: 'replace', path: 'active', value: 'maybe' }]],
      [[{ path: 'active', value: false }]],
      [[{ op: 7, value: { active: false } }]],
    ])('PatchOp %j → 400 in the SCIM error shape, nothing changes', async (operations) => {
      const before = await snapshot(target.id);
      const res = await d.scim.patch(`/Users/${target.id}`, operations as never);
      expectStatus(res, 400);
      expect(res.body).toEqual(scimError400());
      expect(['invalidSyntax', 'invalidValue']).toContain(res.body.scimType);
      expect(await snapshot(target.id)).toEqual(before);
    });

    it('a PatchOp without Operations, or with Operations not an array → 400', async () => {
      for (const body of [
        { schemas: [PATCH_OP] },
        { schemas: [PATCH_OP], Operations: { op: 'replace' } },
        { schemas: [PATCH_OP], Operations: 'replace' },
      ]) {
        const res = await t.http
          .patch(`${SCIM}/Users/${target.id}`)
          .set({ ...bearer(d.scim.token), 'Content-Type': 'application/scim+json' })
          .send(body);
        expectStatus(res, 400);
        expect(res.body).toEqual(scimError400());
      }
    });

    it('remove without a path → 400 noTarget', async () => {
      expectScimError(await patchUser(d, target.id, { op: 'remove' }), 400, 'noTarget');
    });

    it('a body that is not JSON → 400 in the SCIM error shape', async () => {
      for (const type of ['application/scim+json', 'application/json']) {
        const res = await t.http
          .post(`${SCIM}/Users`)
          .set({ ...bearer(d.scim.token), 'Content-Type': type })
          .send('{"userName": "broken@example.com",');
        expectStatus(res, 400);
        expect(res.body).toEqual(scimError400());
      }
    });

    it.each([
      ['a NUL in userName', { userName: `nul\u0000${randomUUID().slice(0, 6)}@example.com` }],
      ['no userName', { userName: undefined }],
      ['a userName that is no email address', { userName: 'just-a-name' }],
      ['a userName that is not a string', { userName: ['a@example.com'] }],
    ])('POST /Users with %s → 400, nothing created', async (_name, override) => {
      const email = emailOf('refused');
      const before = await t.ds.getRepository(UserEntity).count();
      const res = await d.scim.post('/Users', { ...scimUser(email), ...override });
      expectStatus(res, 400);
      expect(res.body).toEqual(scimError400());
      expect(await t.ds.getRepository(UserEntity).count()).toBe(before);
    });

    it('a NUL in a filter or in a name → 400', async () => {
      const filtered = await d.scim.get('/Users', { filter: 'userName eq "a\u0000b"' });
      expectStatus(filtered, 400);
      expect(filtered.body).toEqual(scimError400());
      const res = await patchUser(d, target.id, { op: 'replace', path: 'name.givenName', value: 'x\u0000y' });
      expectStatus(res, 400);
      expect(res.body).toEqual(scimError400());
    });

    it('a huge count is capped at 200', async () => {
      // 201 more accounts of this domain, written directly: the cap needs more than 200 to show
      const users = t.ds.getRepository(UserEntity);
      const rows = Array.from({ length: 201 }, (_, i) =>
        users.create({
          id: randomUUID(),
          email: `bulk-${i}-${randomUUID().slice(0, 6)}@bulk.test`,
          first_name: 'Bulk',
          last_name: `${i}`,
          password_hash: null,
          status: 'ACTIVE',
          is_super_admin: false,
          system_domain_id: d.domainId,
        }),
      );
      await users.insert(rows);
      await t.ds
        .getRepository(UserSystemDomainEntity)
        .insert(rows.map((u) => ({ user_id: u.id, system_domain_id: d.domainId, is_admin: false })));
      for (const count of [201, 100_000, 2_147_483_647, 2 ** 31]) {
        const res = await d.scim.get('/Users', { count });
        expectStatus(res, 200);
        expect(res.body).toMatchObject({ totalResults: 203, itemsPerPage: 200, startIndex: 1 });
        expect(res.body.Resources).toHaveLength(200);
      }
    });

    it('a negative or non-numeric startIndex/count is no 500', async () => {
      const queries: Record<string, string | number>[] = [
        { startIndex: -5 },
        { count: -1 },
        { startIndex: 'x' },
        { count: 'lots' },
      ];
      for (const query of queries) {
        const res = await d.scim.get('/Users', query);
        expect([200, 400]).toContain(res.status);
        if (res.status === 400) expect(res.body).toEqual(scimError400());
      }
    });
  });
});

/** A 400 in the SCIM error shape, any scimType (or none). */
function scimError400() {
  return expect.objectContaining({ schemas: [ERROR], status: '400', detail: expect.any(String) });
}
