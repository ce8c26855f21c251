import { randomUUID } from 'node:crypto';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { WebhookEventEntity } from '../../src/base/model/webhook-event.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { codeOf, samlWorld } from '../utils/saml-setup.js';

const U = '/API/users/v1';
/** A 1×1 PNG, and an SVG that only claims to be an image. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

/**
 * Teams, role groups and group mappings (issue 21): CRUD in the published shapes, the literal paths that
 * must not fall to an {id} route, a role granted through a role group counting on the next request and gone
 * on the next request after removal, and the attacks: escalation, cross-tenant ids, hostile bodies.
 */
describe('teams, role groups and group mappings (API/users/v1)', () => {
  let t: TestApp;
  let admin: UserEntity;
  let h: Record<string, string>;
  let otherAdminH: Record<string, string>;
  const as = async (user: UserEntity, domainId?: string) =>
    bearer((await tokenFor(t, user, domainId ? { domainId } : {})).token);
  const name = (p = 'n') => `${p}-${randomUUID().slice(0, 8)}`;
  const eventsOf = (objectId: string) =>
    t.ds
      .getRepository(WebhookEventEntity)
      .find({ where: { object_id: objectId }, order: { date_created: 'ASC' } })
      .then((rows) => rows.map((r) => `${r.realm}:${r.operation}`));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { isAdmin: true });
    h = await as(admin);
    const other = await createDomain(t);
    otherAdminH = await as(await createUser(t, { domainId: other.id, isAdmin: true }), other.id);
    // events are stored only when a webhook listens
    await t.http
      .post('/API/notifications/v1/webhooks/')
      .set(h)
      .send({ url: 'https://hooks.example.com/groups', event_type: 'groups', status: 'ENABLED' })
      .expect(201);
  });
  afterAll(() => t.close());

  describe('teams', () => {
    it('CRUD in the published shape: name alone creates; list envelope; basic; PUT and PATCH; 409; DELETE 204', async () => {
      const created = await t.http
        .post(`${U}/teams`)
        .set(h)
        .send({ name: name('team') })
        .expect(201);
      expect(created.body).toEqual({
        id: expect.any(String),
        name: created.body.name,
        alias: null,
        description: null,
        external_id: null,
        default_user_type: null,
        logo: null,
        system_domain_id: t.domainId,
        member_ids: [],
        date_created: expect.any(String),
        date_modified: expect.any(String),
      });
      const id = created.body.id as string;
      // a team carries no roles: the field is not part of its body, and nothing is stored
      const withRoles = await t.http
        .post(`${U}/teams/`)
        .set(h)
        .send({ name: name('team'), roles: ['can_read_users'] })
        .expect(201);
      expect(withRoles.body.roles).toBeUndefined();
      expect(
        (await t.ds.getRepository(GroupEntity).findOneByOrFail({ id: withRoles.body.id })).roles,
      ).toEqual([]);

      const list = await t.http.get(`${U}/teams/`).query({ query: created.body.name }).set(h).expect(200);
      expect(list.body).toMatchObject({ total: 1, page: 1, objects: [{ id }] });
      const basic = await t.http
        .get(`${U}/teams/basic/`)
        .set(await as(await createUser(t)))
        .expect(200);
      expect(basic.body.objects).toContainEqual({ id, name: created.body.name, kind: 'TEAM' });

      await t.http
        .put(`${U}/teams/${id}/`)
        .set(h)
        .send({ alias: 'ops', external_id: 'ext-1', default_user_type: 'POWER' })
        .expect(200)
        .expect((r) =>
          expect(r.body).toMatchObject({ alias: 'ops', external_id: 'ext-1', default_user_type: 'POWER' }),
        );
      await t.http.patch(`${U}/teams/${id}`).set(h).send({ description: 'the ops team' }).expect(200);
      await t.http.post(`${U}/teams`).set(h).send({ name: created.body.name }).expect(409);
      // a group and a role group may share a team's name: names are unique per kind
      await t.http.post(`${U}/groups`).set(h).send({ name: created.body.name }).expect(201);
      await t.http.post(`${U}/role_groups`).set(h).send({ name: created.body.name }).expect(201);

      for (const body of [
        {},
        { name: '' },
        { name: '   ' },
        { name: 7 },
        { name: 'x', default_user_type: 'GOD' },
      ]) {
        await t.http.post(`${U}/teams`).set(h).send(body).expect(400);
      }
      await t.http.patch(`${U}/teams/${id}`).set(h).send({ name: null }).expect(400);
      expect((await t.http.get(`${U}/teams/${id}`).set(h).expect(200)).body.description).toBe('the ops team');

      await t.http.delete(`${U}/teams/${id}/`).set(h).expect(204);
      await t.http.get(`${U}/teams/${id}/`).set(h).expect(404);
      expect(await eventsOf(id)).toEqual(['team:create', 'team:update', 'team:update', 'team:delete']);
    });

    it('members: the user comes back with groups, teams and role groups apart; idempotent; 404s', async () => {
      const team = (
        await t.http
          .post(`${U}/teams`)
          .set(h)
          .send({ name: name('team') })
          .expect(201)
      ).body;
      const user = await createUser(t);
      const added = await t.http.post(`${U}/teams/${team.id}/users/${user.id}/`).set(h).expect(201);
      expect(added.body).toMatchObject({ id: user.id, teams: [team.id], groups: [], role_groups: [] });
      await t.http.post(`${U}/teams/${team.id}/users/${user.id}`).set(h).expect(201);
      expect((await t.http.get(`${U}/teams/${team.id}`).set(h).expect(200)).body.member_ids).toEqual([
        user.id,
      ]);
      await t.http.delete(`${U}/teams/${team.id}/users/${user.id}/`).set(h).expect(204);
      await t.http.delete(`${U}/teams/${team.id}/users/${user.id}/`).set(h).expect(404);
      await t.http.post(`${U}/teams/${team.id}/users/${randomUUID()}/`).set(h).expect(404);
      await t.http.post(`${U}/teams/${randomUUID()}/users/${user.id}/`).set(h).expect(404);
      expect(await eventsOf(team.id)).toEqual(['team:create', 'team_member:create', 'team_member:delete']);
    });

    it('logo: raw image/* or multipart, judged by its bytes; served to members with safe headers; DELETE', async () => {
      const team = (
        await t.http
          .post(`${U}/teams`)
          .set(h)
          .send({ name: name('team') })
          .expect(201)
      ).body;
      const up = await t.http
        .post(`${U}/teams/${team.id}/logo`)
        .set(h)
        .set('Content-Type', 'image/png')
        .send(PNG);
      expect(up.status).toBe(200);
      expect(up.body.logo).toMatch(new RegExp(`/API/users/v1/teams/${team.id}/logo/\\?v=[0-9a-f]{12}$`));
      expect((await t.http.get(`${U}/teams/${team.id}`).set(h).expect(200)).body.logo).toBe(up.body.logo);
      const member = await as(await createUser(t));
      const served = await t.http.get(`${U}/teams/${team.id}/logo/`).set(member).buffer(true).expect(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(Buffer.compare(served.body as Buffer, PNG)).toBe(0);
      await t.http
        .post(`${U}/teams/${team.id}/logo/`)
        .set(h)
        .attach('file', PNG, { filename: 'l.png', contentType: 'image/png' })
        .expect(200);
      // hostile: an SVG, HTML claiming PNG, nothing, too large, a member without the role, another domain
      await t.http
        .post(`${U}/teams/${team.id}/logo`)
        .set(h)
        .set('Content-Type', 'image/svg+xml')
        .send(SVG)
        .expect(400);
      await t.http
        .post(`${U}/teams/${team.id}/logo`)
        .set(h)
        .set('Content-Type', 'image/png')
        .send(Buffer.from('<html>'))
        .expect(400);
      await t.http
        .post(`${U}/teams/${team.id}/logo`)
        .set(h)
        .send({ logo: PNG.toString('base64') })
        .expect(400);
      await t.http
        .post(`${U}/teams/${team.id}/logo`)
        .set(h)
        .set('Content-Type', 'image/png')
        .send(Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]))
        .expect(413);
      await t.http
        .post(`${U}/teams/${team.id}/logo`)
        .set(member)
        .set('Content-Type', 'image/png')
        .send(PNG)
        .expect(403);
      await t.http
        .post(`${U}/teams/${team.id}/logo`)
        .set(otherAdminH)
        .set('Content-Type', 'image/png')
        .send(PNG)
        .expect(404);
      await t.http.get(`${U}/teams/${team.id}/logo`).set(otherAdminH).expect(404);
      await t.http.delete(`${U}/teams/${team.id}/logo/`).set(h).expect(204);
      await t.http.delete(`${U}/teams/${team.id}/logo/`).set(h).expect(404);
      await t.http.get(`${U}/teams/${team.id}/logo/`).set(h).expect(404);
    });
  });

  describe('role groups', () => {
    it('a role granted through a role group counts on the next request and is gone on the next after removal', async () => {
      const user = await createUser(t);
      const uh = await as(user);
      await t.http.get(`${U}/users/`).set(uh).expect(403);
      const rg = await t.http
        .post(`${U}/role_groups/`)
        .set(h)
        .send({ name: name('readers'), roles: ['can_read_users'], role_categories: ['people'] })
        .expect(201);
      expect(rg.body).toMatchObject({
        roles: ['can_read_users'],
        role_categories: ['people'],
        member_ids: [],
      });
      const added = await t.http.post(`${U}/role_groups/${rg.body.id}/users/${user.id}`).set(h).expect(201);
      expect(added.body).toMatchObject({ role_groups: [rg.body.id], teams: [], groups: [] });
      // the same token, next request
      await t.http.get(`${U}/users/`).set(uh).expect(200);
      expect((await t.http.get(`${U}/users/current/roles/`).set(uh).expect(200)).body).toEqual({
        roles: ['can_read_users'],
        objects: ['can_read_users'],
      });
      expect((await t.http.get(`${U}/users/${user.id}/roles/`).set(h).expect(200)).body.roles).toEqual([
        'can_read_users',
      ]);
      await t.http.delete(`${U}/role_groups/${rg.body.id}/users/${user.id}/`).set(h).expect(204);
      await t.http.get(`${U}/users/`).set(uh).expect(403);

      // again through a change of the role group's roles, then its deletion
      await t.http.post(`${U}/role_groups/${rg.body.id}/users/${user.id}`).set(h).expect(201);
      await t.http.get(`${U}/users/`).set(uh).expect(200);
      await t.http
        .patch(`${U}/role_groups/${rg.body.id}/`)
        .set(h)
        .send({ roles: ['can_read_apps'] })
        .expect(200);
      await t.http.get(`${U}/users/`).set(uh).expect(403);
      await t.http
        .put(`${U}/role_groups/${rg.body.id}`)
        .set(h)
        .send({ roles: ['can_read_users'] })
        .expect(200);
      await t.http.get(`${U}/users/`).set(uh).expect(200);
      await t.http.delete(`${U}/role_groups/${rg.body.id}/`).set(h).expect(204);
      await t.http.get(`${U}/users/`).set(uh).expect(403);
      expect(await eventsOf(rg.body.id)).toEqual([
        'role_group:create',
        'role_group_member:create',
        'role_group_member:delete',
        'role_group_member:create',
        'role_group:update',
        'role_group:update',
        'role_group:delete',
      ]);
    });

    it('the group roles are needed, and roles are validated (400)', async () => {
      // escalation (granting, or managing a role group carrying, roles the caller does not hold) is
      // GroupKindsService's rule: group-kinds.service.spec.ts
      const plain = await as(await createUser(t));
      await t.http.get(`${U}/role_groups`).set(plain).expect(403);
      await t.http
        .post(`${U}/role_groups`)
        .set(plain)
        .send({ name: name('rg') })
        .expect(403);
      for (const body of [
        { name: 'x', roles: ['can_fly'] },
        { name: 'x', roles: 'can_read_users' },
        { name: 'x', roles: null },
      ]) {
        await t.http.post(`${U}/role_groups`).set(h).send(body).expect(400);
      }
    });

    it('cross-tenant: another domain’s ids are 404, and its users cannot be added', async () => {
      const rg = (
        await t.http
          .post(`${U}/role_groups`)
          .set(h)
          .send({ name: name('rg') })
          .expect(201)
      ).body;
      const team = (
        await t.http
          .post(`${U}/teams`)
          .set(h)
          .send({ name: name('team') })
          .expect(201)
      ).body;
      for (const path of [`role_groups/${rg.id}`, `teams/${team.id}`]) {
        await t.http.get(`${U}/${path}/`).set(otherAdminH).expect(404);
        await t.http.patch(`${U}/${path}/`).set(otherAdminH).send({ name: 'mine' }).expect(404);
        await t.http.delete(`${U}/${path}/`).set(otherAdminH).expect(404);
      }
      const foreign = await createUser(t, { domainId: (await createDomain(t)).id });
      await t.http.post(`${U}/role_groups/${rg.id}/users/${foreign.id}`).set(h).expect(404);
      await t.http.post(`${U}/teams/${team.id}/users/${foreign.id}`).set(h).expect(404);
      // a role group is not a group, nor a team: each kind answers only for its own ids
      await t.http.get(`${U}/groups/${rg.id}/`).set(h).expect(404);
      await t.http.get(`${U}/teams/${rg.id}/`).set(h).expect(404);
      await t.http.get(`${U}/role_groups/${team.id}/`).set(h).expect(404);
      const listed = (await t.http.get(`${U}/groups/`).set(h).query({ per_page: 1000 }).expect(200)).body
        .objects;
      expect(listed.map((g: { id: string }) => g.id)).not.toContain(rg.id);
    });
  });

  describe('literal paths are never captured by an {id} route', () => {
    it('groups/mappings, groups/all/basic, teams/basic, role_groups/basic', async () => {
      const group = (
        await t.http
          .post(`${U}/groups`)
          .set(h)
          .send({ name: name('g') })
          .expect(201)
      ).body;
      const team = (
        await t.http
          .post(`${U}/teams`)
          .set(h)
          .send({ name: name('t') })
          .expect(201)
      ).body;
      const rg = (
        await t.http
          .post(`${U}/role_groups`)
          .set(h)
          .send({ name: name('r') })
          .expect(201)
      ).body;
      const all = await t.http.get(`${U}/groups/all/basic/`).set(h).query({ per_page: 1000 }).expect(200);
      expect(all.body.objects).toEqual(
        expect.arrayContaining([
          { id: group.id, name: group.name, kind: 'GROUP' },
          { id: team.id, name: team.name, kind: 'TEAM' },
          { id: rg.id, name: rg.name, kind: 'ROLE_GROUP' },
        ]),
      );
      await t.http.get(`${U}/groups/mappings`).set(h).expect(200);
      await t.http.get(`${U}/teams/basic`).set(h).expect(200);
      await t.http.get(`${U}/role_groups/basic`).set(h).expect(200);
      // and a segment that is no route is a 404 that names no group
      const res = await t.http.get(`${U}/groups/nothing-here/`).set(h).expect(404);
      expect(res.body.errors[0]).not.toMatch(/mapping/i);
    });
  });

  describe('groups: reindex and logo', () => {
    it('reindex answers 201 with the request and records the event; another domain’s group is 404', async () => {
      const group = (
        await t.http
          .post(`${U}/groups`)
          .set(h)
          .send({ name: name('g') })
          .expect(201)
      ).body;
      const res = await t.http.post(`${U}/groups/${group.id}/reindex/`).set(h).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        group_id: group.id,
        job_id: res.body.id,
        status: 'READY',
      });
      expect(await eventsOf(group.id)).toContain('group:reindex');
      await t.http.post(`${U}/groups/${group.id}/reindex/`).set(otherAdminH).expect(404);
      await t.http
        .post(`${U}/groups/${group.id}/reindex/`)
        .set(await as(await createUser(t)))
        .expect(403);
    });

    it('logo: uploaded raw, served to members, refused when it is not an image', async () => {
      const group = (
        await t.http
          .post(`${U}/groups`)
          .set(h)
          .send({ name: name('g') })
          .expect(201)
      ).body;
      await t.http
        .post(`${U}/groups/${group.id}/logo`)
        .set(h)
        .set('Content-Type', 'image/png')
        .send(PNG)
        .expect(200);
      await t.http.get(`${U}/groups/${group.id}/logo`).set(h).expect(200);
      await t.http
        .post(`${U}/groups/${group.id}/logo`)
        .set(h)
        .set('Content-Type', 'image/png')
        .send(SVG)
        .expect(400);
      await t.http.delete(`${U}/groups/${group.id}/logo`).set(otherAdminH).expect(404);
      await t.http.delete(`${U}/groups/${group.id}/logo`).set(h).expect(204);
    });
  });

  describe('group mappings', () => {
    it('CRUD: 201, 409 on a duplicate name, GET and DELETE by name; bad input and foreign groups refused', async () => {
      const group = (
        await t.http
          .post(`${U}/groups`)
          .set(h)
          .send({ name: name('g') })
          .expect(201)
      ).body;
      const mapping = name('CN=Editors,OU=Media');
      const created = await t.http
        .post(`${U}/groups/mappings/`)
        .set(h)
        .send({ name: mapping, group_id: group.id })
        .expect(201);
      expect(created.body).toEqual({
        name: mapping,
        group_id: group.id,
        system_domain_id: t.domainId,
        date_created: expect.any(String),
      });
      await t.http
        .post(`${U}/groups/mappings`)
        .set(h)
        .send({ name: mapping, group_id: group.id })
        .expect(409);
      const one = await t.http
        .get(`${U}/groups/mappings/${encodeURIComponent(mapping)}/`)
        .set(h)
        .expect(200);
      expect(one.body.group_id).toBe(group.id);
      const list = await t.http.get(`${U}/groups/mappings/`).set(h).expect(200);
      expect(list.body.objects.map((m: { name: string }) => m.name)).toContain(mapping);
      // another domain sees none of it, and cannot map to this domain's group
      await t.http
        .get(`${U}/groups/mappings/${encodeURIComponent(mapping)}`)
        .set(otherAdminH)
        .expect(404);
      await t.http
        .post(`${U}/groups/mappings`)
        .set(otherAdminH)
        .send({ name: name(), group_id: group.id })
        .expect(404);
      for (const body of [
        {},
        { name: mapping },
        { group_id: group.id },
        { name: '  ', group_id: group.id },
        { name: 'x', group_id: 'nope' },
      ]) {
        await t.http.post(`${U}/groups/mappings`).set(h).send(body).expect(400);
      }
      await t.http
        .post(`${U}/groups/mappings`)
        .set(h)
        .send({ name: name(), group_id: randomUUID() })
        .expect(404);
      // escalation (mapping to something carrying roles the caller does not hold): group-mappings.service.spec.ts
      await t.http
        .delete(`${U}/groups/mappings/${encodeURIComponent(mapping)}`)
        .set(otherAdminH)
        .expect(404);
      await t.http
        .delete(`${U}/groups/mappings/${encodeURIComponent(mapping)}`)
        .set(h)
        .expect(204);
      await t.http
        .get(`${U}/groups/mappings/${encodeURIComponent(mapping)}`)
        .set(h)
        .expect(404);
    });

    it('applied at each single sign-on: asserted names join their groups, a name no longer asserted leaves', async () => {
      const w = await samlWorld(t);
      const wh = w.adminAuth;
      const editors = (
        await t.http
          .post(`${U}/role_groups`)
          .set(wh)
          .send({ name: 'editors', roles: ['can_read_users'] })
          .expect(201)
      ).body;
      const team = (await t.http.post(`${U}/teams`).set(wh).send({ name: 'media' }).expect(201)).body;
      const untouched = (await t.http.post(`${U}/groups`).set(wh).send({ name: 'manual' }).expect(201)).body;
      await t.http
        .post(`${U}/groups/mappings`)
        .set(wh)
        .send({ name: 'idp-editors', group_id: editors.id })
        .expect(201);
      await t.http
        .post(`${U}/groups/mappings`)
        .set(wh)
        .send({ name: 'idp-media', group_id: team.id })
        .expect(201);
      await t.http.post(`${U}/groups/${untouched.id}/users/${w.member.id}`).set(wh).expect(201);
      const signOn = async (groups: string[]) => {
        const r = await w.post(w.response({ inResponseTo: await w.startRequest(), attributes: { groups } }));
        expect(r.status).toBe(302);
        expect(codeOf(r.location)).toBeTruthy();
      };
      const memberships = async () =>
        (await t.ds.query('SELECT group_id FROM group_members WHERE user_id = $1', [w.member.id])).map(
          (r: { group_id: string }) => r.group_id,
        ) as string[];

      await signOn(['idp-editors', 'idp-media', 'unmapped']);
      expect((await memberships()).sort()).toEqual([editors.id, team.id, untouched.id].sort());
      // the role group's role is the member's on their next request
      const mh = await as(w.member, w.domainId);
      await t.http.get(`${U}/users/`).set(mh).expect(200);
      await signOn(['idp-media']);
      expect((await memberships()).sort()).toEqual([team.id, untouched.id].sort());
      await t.http.get(`${U}/users/`).set(mh).expect(403);
      await signOn([]);
      expect(await memberships()).toEqual([untouched.id]);
    });
  });
});
