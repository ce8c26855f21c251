import { randomUUID } from 'node:crypto';
import { ALL_ROLES } from '../../src/base/common/auth/roles.js';
import { WIRE_DATE_PATTERN } from '../../src/base/common/http/wire-date.js';
import { GroupMemberEntity } from '../../src/base/model/group-member.entity.js';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const GROUPS = '/API/users/v1/groups';

describe('groups (API/users/v1/groups)', () => {
  let t: TestApp;
  let admin: UserEntity;
  let h: Record<string, string>;
  const as = async (user: UserEntity) => bearer((await tokenFor(t, user)).token);
  const name = (prefix = 'group') => `${prefix}-${randomUUID().slice(0, 8)}`;
  const create = async (body: Record<string, unknown> = {}, headers = h) =>
    (
      await t.http
        .post(GROUPS)
        .set(headers)
        .send({ name: name(), roles: [], ...body })
        .expect(201)
    ).body as {
      id: string;
      name: string;
    };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { isAdmin: true });
    h = await as(admin);
  });
  afterAll(() => t.close());

  describe('POST /v1/groups/', () => {
    it('creates a group of the caller’s domain, with or without the trailing slash', async () => {
      const groupName = name();
      const res = await t.http
        .post(`${GROUPS}/`)
        .set(h)
        .send({
          name: ` ${groupName} `,
          description: 'Readers',
          roles: ['can_read_users', 'can_read_apps', 'can_read_users'],
        })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: groupName,
        description: 'Readers',
        roles: ['can_read_users', 'can_read_apps'],
        system_domain_id: t.domainId,
        member_ids: [],
        date_created: expect.any(String),
        date_modified: expect.any(String),
      });
      const bare = await t.http.post(GROUPS).set(h).send({ name: name(), roles: [] }).expect(201);
      expect(bare.body).toMatchObject({ description: null, roles: [] });
      // the published clients send only the name: roles default to none
      const named = await t.http.post(GROUPS).set(h).send({ name: name() }).expect(201);
      expect(named.body).toMatchObject({ description: null, roles: [] });
    });

    it('answers 409 for a name taken in the domain; other domains may reuse it', async () => {
      const { name: taken } = await create();
      const res = await t.http.post(GROUPS).set(h).send({ name: taken, roles: [] }).expect(409);
      expect(res.body).toEqual({ errors: ['A group with this name already exists in this domain'] });
      const otherAdmin = await createUser(t, { isAdmin: true, domainId: (await createDomain(t)).id });
      await create({ name: taken }, await as(otherAdmin));
    });

    it.each([
      [{}, { name: 'name must be a string' }],
      [{ name: 'x', roles: null }, { roles: 'roles must be an array' }],
      [
        { name: '', roles: ['can_fly'] },
        {
          name: 'name must be longer than or equal to 1 characters',
          roles: `each value must be one of ${ALL_ROLES.join(', ')}`,
        },
      ],
      [{ name: 'x', roles: 'can_read_users' }, { roles: 'roles must be an array' }],
      [{ name: 'x', roles: [], description: 7 }, { description: 'description must be a string' }],
    ])('validates the body %j', async (body, errors) => {
      const res = await t.http.post(GROUPS).set(h).send(body).expect(400);
      expect(res.body).toEqual({ errors });
    });

    it('needs can_write_groups', async () => {
      const reader = await createUser(t, { roles: ['can_read_groups'] });
      const res = await t.http
        .post(GROUPS)
        .set(await as(reader))
        .send({ name: name(), roles: [] })
        .expect(403);
      expect(res.body).toEqual({ errors: ['Missing role: can_write_groups'] });
      await t.http.post(GROUPS).send({ name: name(), roles: [] }).expect(401);
    });
  });

  describe('GET /v1/groups/ (list)', () => {
    let lh: Record<string, string>;
    beforeAll(async () => {
      // a domain of its own, so counts and order are exact
      const domainId = (await createDomain(t)).id;
      const domainAdmin = await createUser(t, { isAdmin: true, domainId });
      lh = await as(domainAdmin);
      for (const n of ['delta', 'alpha', 'charlie', 'bravo_']) await create({ name: n }, lh);
    });

    it('lists the domain’s groups, page style', async () => {
      const res = await t.http.get(`${GROUPS}/`).set(lh).expect(200);
      expect(res.body.objects.map((g: { name: string }) => g.name)).toEqual([
        'alpha',
        'bravo_',
        'charlie',
        'delta',
      ]);
      expect(res.body).toMatchObject({
        page: 1,
        pages: 1,
        per_page: 10,
        total: 4,
        next_url: null,
        prev_url: null,
      });
      const page = await t.http.get(GROUPS).query({ page: 2, per_page: 3 }).set(lh).expect(200);
      expect(page.body).toMatchObject({
        objects: [expect.objectContaining({ name: 'delta' })],
        page: 2,
        pages: 2,
        total: 4,
        next_url: null,
        prev_url: '/API/users/v1/groups?page=1&per_page=3',
        last_url: '/API/users/v1/groups?page=2&per_page=3',
      });
    });

    it('filters by name and sorts', async () => {
      const q = await t.http.get(GROUPS).query({ query: 'HAR' }).set(lh).expect(200);
      expect(q.body.objects.map((g: { name: string }) => g.name)).toEqual(['charlie']);
      const underscore = await t.http.get(GROUPS).query({ query: '_' }).set(lh).expect(200);
      expect(underscore.body.objects.map((g: { name: string }) => g.name)).toEqual(['bravo_']);
      const desc = await t.http.get(GROUPS).query({ sort: 'name,desc' }).set(lh).expect(200);
      expect(desc.body.objects.map((g: { name: string }) => g.name)).toEqual([
        'delta',
        'charlie',
        'bravo_',
        'alpha',
      ]);
      const created = await t.http.get(GROUPS).query({ sort: 'date_created,asc' }).set(lh).expect(200);
      expect(created.body.objects.map((g: { name: string }) => g.name)).toEqual([
        'delta',
        'alpha',
        'charlie',
        'bravo_',
      ]);
    });

    it.each([
      [{ sort: 'roles,asc' }, { sort: expect.stringContaining('field one of name, date_created') }],
      [{ per_page: 0 }, { per_page: 'per_page must not be less than 1' }],
      [{ per_page: 1001 }, { per_page: 'per_page must not be greater than 1000' }],
      [{ page: 10001 }, { page: 'page must not be greater than 10000' }],
    ])('refuses %j', async (query, errors) => {
      const res = await t.http.get(GROUPS).query(query).set(lh).expect(400);
      expect(res.body).toEqual({ errors });
    });

    it('needs can_read_groups', async () => {
      const plain = await createUser(t);
      const res = await t.http
        .get(GROUPS)
        .set(await as(plain))
        .expect(403);
      expect(res.body).toEqual({ errors: ['Missing role: can_read_groups'] });
    });
  });

  describe('GET, PATCH, DELETE /v1/groups/{group_id}/', () => {
    it('reads a group; other domains’ groups are 404', async () => {
      const group = await create({ roles: ['can_read_apps'] });
      const res = await t.http.get(`${GROUPS}/${group.id}`).set(h).expect(200);
      expect(res.body).toMatchObject({ id: group.id, roles: ['can_read_apps'] });
      await t.http.get(`${GROUPS}/${group.id}/`).set(h).expect(200);
      const otherAdmin = await createUser(t, { isAdmin: true, domainId: (await createDomain(t)).id });
      const oh = await as(otherAdmin);
      expect((await t.http.get(`${GROUPS}/${group.id}/`).set(oh).expect(404)).body).toEqual({
        errors: ['Group not found'],
      });
      await t.http.patch(`${GROUPS}/${group.id}/`).set(oh).send({ name: 'mine' }).expect(404);
      await t.http.delete(`${GROUPS}/${group.id}/`).set(oh).expect(404);
      expect((await t.http.get(`${GROUPS}/nope/`).set(h).expect(404)).body).toEqual({
        errors: ['Group not found'],
      });
    });

    it('updates name, description and roles; 409 on a taken name', async () => {
      const group = await create({ description: 'old' });
      const other = await create();
      const newName = name('renamed');
      const res = await t.http
        .patch(`${GROUPS}/${group.id}/`)
        .set(h)
        .send({ name: newName, description: null, roles: ['can_read_tokens'] })
        .expect(200);
      expect(res.body).toMatchObject({ name: newName, description: null, roles: ['can_read_tokens'] });
      await t.http.patch(`${GROUPS}/${group.id}/`).set(h).send({ name: newName }).expect(200);
      const taken = await t.http
        .patch(`${GROUPS}/${group.id}/`)
        .set(h)
        .send({ name: other.name })
        .expect(409);
      expect(taken.body).toEqual({ errors: ['A group with this name already exists in this domain'] });
      const invalid = await t.http
        .patch(`${GROUPS}/${group.id}/`)
        .set(h)
        .send({ name: null, roles: ['root'] })
        .expect(400);
      expect(invalid.body).toEqual({
        errors: { name: 'name must be a string', roles: `each value must be one of ${ALL_ROLES.join(', ')}` },
      });
      const escalate = await t.http
        .patch(`${GROUPS}/${group.id}/`)
        .set(h)
        .send({ roles: ['can_delete_system_domains'] })
        .expect(403);
      expect(escalate.body).toEqual({
        errors: ['You cannot grant roles you do not hold: can_delete_system_domains'],
      });
    });

    it('deletes a group (204); its members lose its roles on their next request', async () => {
      const member = await createUser(t);
      const mh = await as(member);
      const group = await create({ roles: ['can_read_users'] });
      await t.http.post(`${GROUPS}/${group.id}/members/${member.id}/`).set(h).expect(201);
      await t.http.get('/API/users/v1/users/').set(mh).expect(200);
      await t.http.delete(`${GROUPS}/${group.id}`).set(h).expect(204);
      await t.http.get('/API/users/v1/users/').set(mh).expect(403);
      await t.http.get(`${GROUPS}/${group.id}/`).set(h).expect(404);
      expect(await t.ds.getRepository(GroupMemberEntity).countBy({ group_id: group.id })).toBe(0);
    });

    it('checks each role: PATCH needs can_write_groups, DELETE can_delete_groups', async () => {
      const reader = await createUser(t, { roles: ['can_read_groups'] });
      const rh = await as(reader);
      const group = await create();
      expect(
        (await t.http.patch(`${GROUPS}/${group.id}/`).set(rh).send({ name: 'x' }).expect(403)).body,
      ).toEqual({
        errors: ['Missing role: can_write_groups'],
      });
      expect((await t.http.delete(`${GROUPS}/${group.id}/`).set(rh).expect(403)).body).toEqual({
        errors: ['Missing role: can_delete_groups'],
      });
      // groups carrying roles the caller lacks are out of their reach: GroupsService's rule (groups.service.spec.ts)
    });
  });

  describe('POST, DELETE /v1/groups/{group_id}/members/{user_id}/', () => {
    it('adds a member (201, idempotent) and removes them (204); roles follow at once', async () => {
      const user = await createUser(t);
      const uh = await as(user);
      const group = await create({ roles: ['can_read_groups'] });
      await t.http.get(GROUPS).set(uh).expect(403);
      const res = await t.http.post(`${GROUPS}/${group.id}/members/${user.id}`).set(h).expect(201);
      expect(res.body).toMatchObject({ id: group.id, member_ids: [user.id] });
      const again = await t.http.post(`${GROUPS}/${group.id}/members/${user.id}/`).set(h).expect(201);
      expect(again.body.member_ids).toEqual([user.id]);
      await t.http.get(GROUPS).set(uh).expect(200);
      const read = await t.http.get(`${GROUPS}/${group.id}/`).set(uh).expect(200);
      expect(read.body.member_ids).toEqual([user.id]);

      await t.http.delete(`${GROUPS}/${group.id}/members/${user.id}`).set(h).expect(204);
      await t.http.get(GROUPS).set(uh).expect(403);
      const gone = await t.http.delete(`${GROUPS}/${group.id}/members/${user.id}/`).set(h).expect(404);
      expect(gone.body).toEqual({ errors: ['Group member not found'] });
    });

    it('takes users of the domain only (404 otherwise)', async () => {
      const group = await create();
      const stranger = await createUser(t, { domainId: (await createDomain(t)).id });
      for (const req of [
        t.http.post(`${GROUPS}/${group.id}/members/${stranger.id}/`).set(h),
        t.http.delete(`${GROUPS}/${group.id}/members/${stranger.id}/`).set(h),
        t.http.post(`${GROUPS}/${group.id}/members/${randomUUID()}/`).set(h),
      ]) {
        expect((await req.expect(404)).body).toEqual({ errors: ['User not found'] });
      }
      expect(
        (await t.http.post(`${GROUPS}/${randomUUID()}/members/${admin.id}/`).set(h).expect(404)).body,
      ).toEqual({
        errors: ['Group not found'],
      });
      expect(
        (await t.http.post(`${GROUPS}/${group.id}/members/not-a-user/`).set(h).expect(404)).body,
      ).toEqual({ errors: ['User not found'] });
    });

    it('needs can_write_groups', async () => {
      const reader = await createUser(t, { roles: ['can_read_groups'] });
      const group = await create();
      const res = await t.http
        .post(`${GROUPS}/${group.id}/members/${reader.id}/`)
        .set(await as(reader))
        .expect(403);
      expect(res.body).toEqual({ errors: ['Missing role: can_write_groups'] });
      await t.http.delete(`${GROUPS}/${group.id}/members/${reader.id}/`).expect(401);
    });

    it('hides members who have left the domain', async () => {
      const user = await createUser(t);
      const group = await create();
      await t.http.post(`${GROUPS}/${group.id}/members/${user.id}/`).set(h).expect(201);
      // a membership ended by anything other than DELETE /v1/users/{id}/ (which also drops group rows)
      await t.ds.query('DELETE FROM user_system_domains WHERE user_id = $1', [user.id]);
      const res = await t.http.get(`${GROUPS}/${group.id}/`).set(h).expect(200);
      expect(res.body.member_ids).toEqual([]);
    });
  });

  describe('PUT /v1/groups/{group_id}/', () => {
    it('is PATCH: same body, same rules, same answer', async () => {
      const admin = await createUser(t, { isAdmin: true });
      const h = await as(admin);
      const created = await t.http
        .post(`${GROUPS}/`)
        .set(h)
        .send({ name: name(), roles: ['can_read_apps'] })
        .expect(201);
      const newName = name('renamed');
      const put = await t.http
        .put(`${GROUPS}/${created.body.id}/`)
        .set(h)
        .send({ name: newName, description: 'put', roles: ['can_read_users'] })
        .expect(200);
      expect(put.body).toMatchObject({
        id: created.body.id,
        name: newName,
        description: 'put',
        roles: ['can_read_users'],
        date_modified: expect.stringMatching(WIRE_DATE_PATTERN),
      });
      const patch = await t.http
        .patch(`${GROUPS}/${created.body.id}`)
        .set(h)
        .send({ name: newName, description: 'put', roles: ['can_read_users'] })
        .expect(200);
      expect(put.body).toEqual({ ...patch.body, date_modified: expect.any(String) });
      // the whole object read back: read-only fields are ignored
      const whole = await t.http
        .put(`${GROUPS}/${created.body.id}`)
        .set(h)
        .send({ ...patch.body, id: randomUUID(), member_ids: [randomUUID()], description: null })
        .expect(200);
      expect(whole.body).toMatchObject({ id: created.body.id, member_ids: [], description: null });
      expect(
        (
          await t.http
            .put(`${GROUPS}/${created.body.id}/`)
            .set(h)
            .send({ roles: ['root'] })
            .expect(400)
        ).body.errors,
      ).toHaveProperty('roles');
      expect(
        (
          await t.http
            .put(`${GROUPS}/${created.body.id}/`)
            .set(h)
            .send({ roles: ['can_delete_system_domains'] })
            .expect(403)
        ).body,
      ).toEqual({ errors: ['You cannot grant roles you do not hold: can_delete_system_domains'] });
    });

    it('needs can_write_groups; another domain’s group is 404', async () => {
      const admin = await createUser(t, { isAdmin: true });
      const group = (
        await t.http
          .post(GROUPS)
          .set(await as(admin))
          .send({ name: name(), roles: [] })
          .expect(201)
      ).body;
      const reader = await createUser(t, { roles: ['can_read_groups'] });
      expect(
        (
          await t.http
            .put(`${GROUPS}/${group.id}/`)
            .set(await as(reader))
            .send({ name: 'x' })
            .expect(403)
        ).body,
      ).toEqual({ errors: ['Missing role: can_write_groups'] });
      const foreign = await createUser(t, { isAdmin: true, domainId: (await createDomain(t)).id });
      expect(
        (
          await t.http
            .put(`${GROUPS}/${group.id}/`)
            .set(await as(foreign))
            .send({ name: 'x' })
            .expect(404)
        ).body,
      ).toEqual({ errors: ['Group not found'] });
      await t.http.put(`${GROUPS}/${group.id}/`).send({ name: 'x' }).expect(401);
    });
  });

  describe('GET /v1/groups/basic/', () => {
    it('any member lists the domain’s groups as {id, name}, page style, filtered and sorted', async () => {
      const domainId = (await createDomain(t)).id;
      const h = await as(await createUser(t, { domainId }));
      const repo = t.ds.getRepository(GroupEntity);
      for (const name of ['editors', 'admins', 'viewers'])
        await repo.save({ system_domain_id: domainId, name, roles: ['can_read_assets'] });
      await repo.save({ system_domain_id: t.domainId, name: 'elsewhere', roles: [] });
      for (const path of [`${GROUPS}/basic/`, `${GROUPS}/basic`]) {
        const res = await t.http.get(path).set(h).expect(200);
        expect(res.body.objects).toEqual([
          { id: expect.any(String), name: 'admins' },
          { id: expect.any(String), name: 'editors' },
          { id: expect.any(String), name: 'viewers' },
        ]);
        expect(res.body).toMatchObject({ page: 1, pages: 1, per_page: 10, total: 3 });
      }
      const desc = await t.http
        .get(`${GROUPS}/basic/`)
        .query({ sort: 'name,desc', per_page: 1 })
        .set(h)
        .expect(200);
      expect(desc.body).toMatchObject({ objects: [{ name: 'viewers' }], pages: 3 });
      expect(desc.body.next_url).toBe('/API/users/v1/groups/basic/?page=2&per_page=1&sort=name%2Cdesc');
      const found = await t.http.get(`${GROUPS}/basic/`).query({ query: 'EDIT' }).set(h).expect(200);
      expect(found.body.objects.map((g: { name: string }) => g.name)).toEqual(['editors']);
      await t.http.get(`${GROUPS}/basic/`).query({ sort: 'roles,asc' }).set(h).expect(400);
      await t.http.get(`${GROUPS}/basic/`).expect(401);
    });
  });

  describe('POST and DELETE /v1/groups/{group_id}/users/{user_id}/', () => {
    const newGroup = async (roles: string[] = []) =>
      (await t.http.post(GROUPS).set(h).send({ name: name(), roles }).expect(201)).body as {
        id: string;
      };

    it('adds a member (201, the user comes back, idempotent) and removes them (204); roles follow at once', async () => {
      const user = await createUser(t);
      const uh = await as(user);
      const group = await newGroup(['can_read_groups']);
      await t.http.get(GROUPS).set(uh).expect(403);
      for (const path of [
        `${GROUPS}/${group.id}/users/${user.id}/`,
        `${GROUPS}/${group.id}/users/${user.id}`,
      ]) {
        const res = await t.http.post(path).set(h).expect(201);
        expect(res.body).toEqual({
          id: user.id,
          email: user.email,
          first_name: 'Test',
          last_name: 'User',
          status: 'ACTIVE',
          type: 'STANDARD',
          is_admin: false,
          is_super_admin: false,
          system_domain_id: t.domainId,
          last_login: null,
          date_created: expect.stringMatching(WIRE_DATE_PATTERN),
          date_modified: expect.stringMatching(WIRE_DATE_PATTERN),
          groups: [group.id],
          teams: [],
          role_groups: [],
          primary_group: null,
        });
      }
      expect(await t.ds.getRepository(GroupMemberEntity).countBy({ group_id: group.id })).toBe(1);
      await t.http.get(GROUPS).set(uh).expect(200);
      expect((await t.http.get(`${GROUPS}/${group.id}/`).set(h).expect(200)).body.member_ids).toEqual([
        user.id,
      ]);

      const del = await t.http.delete(`${GROUPS}/${group.id}/users/${user.id}/`).set(h).expect(204);
      expect(del.text).toBe('');
      await t.http.get(GROUPS).set(uh).expect(403);
      const gone = await t.http.delete(`${GROUPS}/${group.id}/users/${user.id}`).set(h).expect(404);
      expect(gone.body).toEqual({ errors: ['Group member not found'] });
    });

    it('is the same membership as members/: one path adds, the other removes; members/ still answers the group', async () => {
      const user = await createUser(t);
      const group = await newGroup();
      const viaMembers = await t.http.post(`${GROUPS}/${group.id}/members/${user.id}/`).set(h).expect(201);
      expect(viaMembers.body).toMatchObject({ id: group.id, member_ids: [user.id] });
      await t.http.delete(`${GROUPS}/${group.id}/users/${user.id}/`).set(h).expect(204);
      await t.http.post(`${GROUPS}/${group.id}/users/${user.id}/`).set(h).expect(201);
      await t.http.delete(`${GROUPS}/${group.id}/members/${user.id}/`).set(h).expect(204);
    });

    it('takes users and groups of the domain only (404 otherwise, malformed ids too)', async () => {
      const group = await newGroup();
      const stranger = await createUser(t, { domainId: (await createDomain(t)).id });
      for (const id of [stranger.id, randomUUID(), 'not-a-user']) {
        for (const req of [
          t.http.post(`${GROUPS}/${group.id}/users/${id}/`).set(h),
          t.http.delete(`${GROUPS}/${group.id}/users/${id}/`).set(h),
        ]) {
          expect((await req.expect(404)).body).toEqual({ errors: ['User not found'] });
        }
      }
      for (const id of [randomUUID(), 'not-a-group']) {
        expect((await t.http.post(`${GROUPS}/${id}/users/${admin.id}/`).set(h).expect(404)).body).toEqual({
          errors: ['Group not found'],
        });
      }
    });

    it('needs can_write_groups and the roles the group carries', async () => {
      const reader = await createUser(t, { roles: ['can_read_groups'] });
      const group = await newGroup();
      const res = await t.http
        .post(`${GROUPS}/${group.id}/users/${reader.id}/`)
        .set(await as(reader))
        .expect(403);
      expect(res.body).toEqual({ errors: ['Missing role: can_write_groups'] });
      const writer = await createUser(t, { roles: ['can_read_groups', 'can_write_groups'] });
      const powerful = await newGroup(['can_delete_users']);
      expect(
        (
          await t.http
            .post(`${GROUPS}/${powerful.id}/users/${writer.id}/`)
            .set(await as(writer))
            .expect(403)
        ).body,
      ).toEqual({ errors: ['You cannot manage a group carrying roles you do not hold: can_delete_users'] });
      expect(await t.ds.getRepository(GroupMemberEntity).countBy({ group_id: powerful.id })).toBe(0);
      await t.http.post(`${GROUPS}/${group.id}/users/${reader.id}/`).expect(401);
      await t.http.delete(`${GROUPS}/${group.id}/users/${reader.id}/`).expect(401);
    });
  });

  describe('literal segments that are not routes', () => {
    it('are 404 in the {errors} shape, never a 400 from the {group_id} route that caught them', async () => {
      for (const req of [
        t.http.get(`${GROUPS}/nonsense/`).set(h),
        t.http.get(`${GROUPS}/nonsense`).set(h),
        t.http.put(`${GROUPS}/nonsense/`).set(h).send({ name: 'x' }),
        t.http.patch(`${GROUPS}/nonsense/`).set(h).send({ name: 'x' }),
        t.http.delete(`${GROUPS}/nonsense/`).set(h),
        t.http.post(`${GROUPS}/nonsense/users/${admin.id}/`).set(h),
      ]) {
        const res = await req.expect(404);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.body).toEqual({ errors: ['Group not found'] });
      }
      // basic is a route of its own, declared before {group_id}
      await t.http.get(`${GROUPS}/basic/`).set(h).expect(200);
    });
  });
});
