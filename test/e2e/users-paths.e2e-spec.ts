import { randomUUID } from 'node:crypto';
import { ALL_ROLES, DOMAIN_ROLES } from '../../src/base/common/auth/roles.js';
import { WIRE_DATE_PATTERN } from '../../src/base/common/http/wire-date.js';
import { GroupMemberEntity } from '../../src/base/model/group-member.entity.js';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { bearer, login, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

/**
 * The users paths published clients call on existing resources (docs/interface.md, "The users service"):
 * PATCH/PUT /users/current/, PUT /users/{id}/, the roles paths, the basic list, and 404 for literal segments
 * that are not routes. The groups side is in groups.e2e-spec.ts.
 */
const USERS = '/API/users/v1/users';
const CURRENT = `${USERS}/current/`;
const PAT_DENIED = {
  errors: [
    'A token minted for an application cannot change its user’s email or password, or their second factors: sign in as yourself',
  ],
};

/** The roles answer: the same list under `roles` and under the published model's `objects`. */
const rolesBody = (roles: readonly string[]) => ({ roles: [...roles], objects: [...roles] });
describe('users service paths of published clients', () => {
  let t: TestApp;
  const as = async (user: UserEntity, domainId?: string) =>
    bearer((await tokenFor(t, user, { domainId })).token);
  const email = (prefix = 'user') => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
  const groupName = (prefix = 'group') => `${prefix}-${randomUUID().slice(0, 8)}`;
  /** A real PAT through the endpoint, for an app acting as `user` (its ceiling: the user's rights now). */
  const patFor = async (user: UserEntity): Promise<Record<string, string>> => {
    const app = await createApp(t, { defaultUserId: user.id });
    const res = await t.http
      .post(`/API/auth/v1/apps/${app.id}/token/`)
      .set(await as(t.admin))
      .expect(200);
    return bearer(res.body.token as string);
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('PATCH and PUT /v1/users/current/', () => {
    it('the caller renames themself with either method, with or without the trailing slash', async () => {
      const user = await createUser(t);
      const h = await as(user);
      for (const [method, path, first] of [
        ['patch', CURRENT, 'Patched'],
        ['put', CURRENT, 'Put'],
        ['patch', `${USERS}/current`, 'PatchedBare'],
        ['put', `${USERS}/current`, 'PutBare'],
      ] as const) {
        const res = await t.http[method](path)
          .set(h)
          .send({ first_name: first, last_name: null })
          .expect(200);
        expect(res.body).toEqual({
          id: user.id,
          email: user.email,
          first_name: first,
          last_name: null,
          status: 'ACTIVE',
          type: 'STANDARD',
          is_admin: false,
          is_super_admin: false,
          system_domain_id: t.domainId,
          last_login: null,
          date_created: expect.stringMatching(WIRE_DATE_PATTERN),
          date_modified: expect.stringMatching(WIRE_DATE_PATTERN),
          groups: [],
          teams: [],
          role_groups: [],
          primary_group: null,
        });
      }
      const stored = await t.ds.getRepository(UserEntity).findOneByOrFail({ id: user.id });
      expect(stored).toMatchObject({ first_name: 'PutBare', last_name: null });
    });

    it('PUT takes back the whole object a GET gave: read-only and unchanged fields are no change', async () => {
      const user = await createUser(t);
      const h = await as(user);
      const read = (await t.http.get(CURRENT).set(h).expect(200)).body;
      const res = await t.http
        .put(CURRENT)
        .set(h)
        .send({ ...read, first_name: 'Whole', id: randomUUID(), system_domain_id: randomUUID() })
        .expect(200);
      expect(res.body).toEqual({ ...read, first_name: 'Whole', date_modified: expect.any(String) });
      // the same whole object through PATCH: the same answer
      const patched = await t.http
        .patch(CURRENT)
        .set(h)
        .send({ ...read, first_name: 'Whole' })
        .expect(200);
      expect(patched.body).toEqual(res.body);
    });

    it('anything beyond the names still needs can_write_users (and type an administrator), as on PATCH /{id}', async () => {
      const user = await createUser(t);
      const h = await as(user);
      for (const method of ['patch', 'put'] as const) {
        for (const body of [{ email: email() }, { password: 'a-new-password' }, { status: 'INACTIVE' }]) {
          const res = await t.http[method](CURRENT).set(h).send(body).expect(403);
          expect(res.body).toEqual({ errors: ['Missing role: can_write_users'] });
        }
        // a change hidden among the fields sent back unchanged is still a change
        const read = (await t.http.get(CURRENT).set(h).expect(200)).body;
        await t.http[method](CURRENT)
          .set(h)
          .send({ ...read, is_admin: true })
          .expect(403);
      }
      const writer = await createUser(t, { roles: ['can_read_users', 'can_write_users'] });
      const res = await t.http
        .put(CURRENT)
        .set(await as(writer))
        .send({ type: 'POWER' })
        .expect(403);
      expect(res.body).toEqual({ errors: ['Only an administrator may change a user’s type'] });
      expect(await t.ds.getRepository(UserEntity).findOneByOrFail({ id: user.id })).toMatchObject({
        email: user.email,
        status: 'ACTIVE',
      });
    });

    it('email and password: the person signed in may change them; a token minted for an app may not', async () => {
      const admin = await createUser(t, { isAdmin: true });
      const pat = await patFor(admin);
      for (const method of ['patch', 'put'] as const) {
        for (const body of [{ email: email('via-pat') }, { password: 'pat-chosen-password' }]) {
          expect((await t.http[method](CURRENT).set(pat).send(body).expect(403)).body).toEqual(PAT_DENIED);
        }
      }
      // the app's token may still rename its user, and send the unchanged email back
      const renamed = await t.http
        .put(CURRENT)
        .set(pat)
        .send({ first_name: 'ByPat', email: admin.email })
        .expect(200);
      expect(renamed.body).toMatchObject({ first_name: 'ByPat', email: admin.email });
      // the person's own sign-in changes both
      const newEmail = email('signed-in');
      await t.http
        .put(CURRENT)
        .set(await as(admin))
        .send({ email: newEmail, password: 'signed-in-password' })
        .expect(200);
      await login(t, newEmail, 'signed-in-password');
    });

    it('OAuth tokens need user_impersonation, as on PATCH /{id}', async () => {
      const user = await createUser(t);
      const narrow = await tokenFor(t, user, { kind: 'OAUTH', scopes: ['assets:read'] });
      for (const method of ['patch', 'put'] as const) {
        const res = await t.http[method](CURRENT)
          .set(bearer(narrow.token))
          .send({ first_name: 'X' })
          .expect(403);
        expect(res.body).toEqual({ errors: ['This route needs the user_impersonation scope'] });
      }
      const wide = await tokenFor(t, user, { kind: 'OAUTH', scopes: ['user_impersonation'] });
      await t.http.put(CURRENT).set(bearer(wide.token)).send({ first_name: 'Wide' }).expect(200);
    });

    it('validates the body alike; 409 on a taken email; 401 without credentials', async () => {
      const admin = await createUser(t, { isAdmin: true });
      const h = await as(admin);
      const bad = { email: null, password: 'short', status: 'ASLEEP', first_name: 5 };
      const errors = {
        email: 'must be a valid email address',
        first_name: 'first_name must be a string',
        password: 'must be at least 8 characters',
        status: 'must be one of ACTIVE, INACTIVE',
      };
      expect((await t.http.patch(CURRENT).set(h).send(bad).expect(400)).body).toEqual({ errors });
      expect((await t.http.put(CURRENT).set(h).send(bad).expect(400)).body).toEqual({ errors });
      const other = await createUser(t);
      expect((await t.http.put(CURRENT).set(h).send({ email: other.email }).expect(409)).body).toEqual({
        errors: ['A user with this email already exists'],
      });
      await t.http.put(CURRENT).send({ first_name: 'X' }).expect(401);
      await t.http.patch(CURRENT).send({ first_name: 'X' }).expect(401);
    });
  });

  describe('PUT /v1/users/{user_id}/', () => {
    it('is PATCH: can_write_users edits another user; the answer equals PATCH’s', async () => {
      const writer = await createUser(t, { roles: ['can_read_users', 'can_write_users'] });
      const h = await as(writer);
      const target = await createUser(t);
      const put = await t.http
        .put(`${USERS}/${target.id}/`)
        .set(h)
        .send({ first_name: 'Same', last_name: 'Answer' })
        .expect(200);
      const patch = await t.http
        .patch(`${USERS}/${target.id}`)
        .set(h)
        .send({ first_name: 'Same', last_name: 'Answer' })
        .expect(200);
      expect(put.body).toEqual({ ...patch.body, date_modified: expect.any(String) });
      expect(put.body).toMatchObject({ id: target.id, first_name: 'Same', last_name: 'Answer' });
      // a whole object read back with one change
      const read = (await t.http.get(`${USERS}/${target.id}/`).set(h).expect(200)).body;
      const whole = await t.http
        .put(`${USERS}/${target.id}/`)
        .set(h)
        .send({ ...read, status: 'INACTIVE' })
        .expect(200);
      expect(whole.body.status).toBe('INACTIVE');
    });

    it('refuses as PATCH does: others without can_write_users 403, administrators’ fields, other domains 404', async () => {
      const plain = await createUser(t);
      const target = await createUser(t);
      const res = await t.http
        .put(`${USERS}/${target.id}/`)
        .set(await as(plain))
        .send({ first_name: 'X' })
        .expect(403);
      expect(res.body).toEqual({ errors: ['Missing role: can_write_users'] });
      // users rename themselves by id too
      await t.http
        .put(`${USERS}/${plain.id}/`)
        .set(await as(plain))
        .send({ first_name: 'Me' })
        .expect(200);
      const writer = await createUser(t, { roles: ['can_read_users', 'can_write_users'] });
      const wh = await as(writer);
      expect(
        (await t.http.put(`${USERS}/${target.id}/`).set(wh).send({ is_admin: true }).expect(403)).body,
      ).toEqual({ errors: ['Only an administrator may change is_admin'] });
      const stranger = await createUser(t, { domainId: (await createDomain(t)).id });
      expect(
        (await t.http.put(`${USERS}/${stranger.id}/`).set(wh).send({ first_name: 'X' }).expect(404)).body,
      ).toEqual({ errors: ['User not found'] });
      await t.http.put(`${USERS}/${randomUUID()}/`).set(wh).send({ first_name: 'X' }).expect(404);
      await t.http.put(`${USERS}/${target.id}/`).set(wh).send({ status: 'ASLEEP' }).expect(400);
      await t.http.put(`${USERS}/${target.id}/`).send({ first_name: 'X' }).expect(401);
    });

    it('keeps the shared-account rule: another domain’s account is the user’s or a super administrator’s', async () => {
      const shared = await createUser(t, { alsoIn: [(await createDomain(t)).id] });
      const admin = await createUser(t, { isAdmin: true });
      const res = await t.http
        .put(`${USERS}/${shared.id}/`)
        .set(await as(admin))
        .send({ first_name: 'Taken over' })
        .expect(403);
      expect(res.body.errors[0]).toMatch(/^This user also belongs to other domains/);
      // sending back what is stored is no change, so the administrator may still set what is the domain’s
      const read = (
        await t.http
          .get(`${USERS}/${shared.id}/`)
          .set(await as(admin))
          .expect(200)
      ).body;
      const promoted = await t.http
        .put(`${USERS}/${shared.id}/`)
        .set(await as(admin))
        .send({ ...read, is_admin: true })
        .expect(200);
      expect(promoted.body).toMatchObject({ is_admin: true, first_name: 'Test' });
    });
  });

  describe('GET /v1/users/current/roles/ and /v1/users/{user_id}/roles/', () => {
    let domainId: string;
    let reader: UserEntity;
    let rh: Record<string, string>;
    beforeAll(async () => {
      domainId = (await createDomain(t)).id;
      reader = await createUser(t, { domainId, roles: ['can_read_users'] });
      rh = await as(reader);
    });

    it('a user’s roles are the union of their groups’ in this domain, in the catalogue’s order', async () => {
      const other = (await createDomain(t)).id;
      const user = await createUser(t, {
        domainId,
        alsoIn: [other],
        roles: ['can_write_assets', 'can_read_apps'],
      });
      const more = await t.ds
        .getRepository(GroupEntity)
        .save({ system_domain_id: domainId, name: groupName(), roles: ['can_read_assets', 'can_read_apps'] });
      await t.ds.getRepository(GroupMemberEntity).insert({ group_id: more.id, user_id: user.id });
      // a group of the other domain does not count here
      const elsewhere = await t.ds
        .getRepository(GroupEntity)
        .save({ system_domain_id: other, name: groupName(), roles: ['can_delete_users'] });
      await t.ds.getRepository(GroupMemberEntity).insert({ group_id: elsewhere.id, user_id: user.id });
      const expected = rolesBody(['can_read_apps', 'can_read_assets', 'can_write_assets']);
      for (const path of [`${USERS}/current/roles/`, `${USERS}/current/roles`]) {
        expect(
          (
            await t.http
              .get(path)
              .set(await as(user, domainId))
              .expect(200)
          ).body,
        ).toEqual(expected);
      }
      for (const path of [`${USERS}/${user.id}/roles/`, `${USERS}/${user.id}/roles`]) {
        expect((await t.http.get(path).set(rh).expect(200)).body).toEqual(expected);
      }
      // seen from the other domain: that domain's groups only
      expect(
        (
          await t.http
            .get(`${USERS}/current/roles/`)
            .set(await as(user, other))
            .expect(200)
        ).body,
      ).toEqual(rolesBody(['can_delete_users']));
    });

    it('administrators hold every domain role, super administrators every role, a plain member none', async () => {
      const admin = await createUser(t, { domainId, isAdmin: true });
      const plain = await createUser(t, { domainId });
      expect((await t.http.get(`${USERS}/${admin.id}/roles/`).set(rh).expect(200)).body).toEqual(
        rolesBody([...DOMAIN_ROLES]),
      );
      expect(
        (
          await t.http
            .get(`${USERS}/current/roles/`)
            .set(await as(admin))
            .expect(200)
        ).body,
      ).toEqual(rolesBody([...DOMAIN_ROLES]));
      expect((await t.http.get(`${USERS}/${plain.id}/roles/`).set(rh).expect(200)).body).toEqual(
        rolesBody([]),
      );
      expect(
        (
          await t.http
            .get(`${USERS}/current/roles/`)
            .set(await as(plain))
            .expect(200)
        ).body,
      ).toEqual(rolesBody([]));
      // the super administrator, even in a domain they do not belong to
      expect(
        (
          await t.http
            .get(`${USERS}/current/roles/`)
            .set(await as(t.admin, domainId))
            .expect(200)
        ).body,
      ).toEqual(rolesBody([...ALL_ROLES]));
      expect(
        (
          await t.http
            .get(`${USERS}/${t.admin.id}/roles/`)
            .set(await as(t.admin))
            .expect(200)
        ).body,
      ).toEqual(rolesBody([...ALL_ROLES]));
    });

    it('current/roles is what the presented token may use: an app’s token is cut down to its ceiling', async () => {
      const user = await createUser(t, { roles: ['can_read_apps'] });
      // the app was set up while the user held can_read_apps only; the user has been given more since
      const pat = await patFor(user);
      const more = await t.ds
        .getRepository(GroupEntity)
        .save({ system_domain_id: t.domainId, name: groupName(), roles: ['can_read_users'] });
      await t.ds.getRepository(GroupMemberEntity).insert({ group_id: more.id, user_id: user.id });
      expect((await t.http.get(`${USERS}/current/roles/`).set(pat).expect(200)).body).toEqual(
        rolesBody(['can_read_apps']),
      );
      expect(
        (
          await t.http
            .get(`${USERS}/current/roles/`)
            .set(await as(user))
            .expect(200)
        ).body,
      ).toEqual(rolesBody(['can_read_apps', 'can_read_users']));
      // the user's own roles, whoever reads them
      expect(
        (
          await t.http
            .get(`${USERS}/${user.id}/roles/`)
            .set(await as(user))
            .expect(200)
        ).body,
      ).toEqual(rolesBody(['can_read_apps', 'can_read_users']));
    });

    it('current/roles answers any OAuth token (it describes the caller); 401 without credentials', async () => {
      const user = await createUser(t, { roles: ['can_read_assets'] });
      const narrow = await tokenFor(t, user, { kind: 'OAUTH', scopes: ['assets:read'] });
      expect(
        (await t.http.get(`${USERS}/current/roles/`).set(bearer(narrow.token)).expect(200)).body,
      ).toEqual(rolesBody(['can_read_assets']));
      const res = await t.http.get(`${USERS}/current/roles/`).expect(401);
      expect(res.body).toEqual({ errors: ['Authentication credentials were not provided'] });
    });

    it('{user_id}/roles needs can_read_users and a member of the caller’s domain', async () => {
      const plain = await createUser(t, { domainId });
      const res = await t.http
        .get(`${USERS}/${reader.id}/roles/`)
        .set(await as(plain))
        .expect(403);
      expect(res.body).toEqual({ errors: ['Missing role: can_read_users'] });
      const stranger = await createUser(t, { roles: ['can_read_users'] });
      for (const id of [stranger.id, randomUUID(), 'nonsense']) {
        const gone = await t.http.get(`${USERS}/${id}/roles/`).set(rh).expect(404);
        expect(gone.body).toEqual({ errors: ['User not found'] });
      }
      // an OAuth token needs scopes that bundle can_read_users (none does but user_impersonation)
      const narrow = await tokenFor(t, reader, { kind: 'OAUTH', scopes: ['assets:read'] });
      await t.http.get(`${USERS}/${reader.id}/roles/`).set(bearer(narrow.token)).expect(403);
      await t.http.get(`${USERS}/${reader.id}/roles/`).expect(401);
    });
  });

  describe('GET /v1/users/basic/', () => {
    let domainId: string;
    let h: Record<string, string>;
    beforeAll(async () => {
      domainId = (await createDomain(t)).id;
      // a plain member, without can_read_users
      h = await as(await createUser(t, { domainId, email: 'member@basic.test' }));
      for (const n of ['alpha', 'bravo', 'charlie'])
        await createUser(t, { domainId, email: `${n}@basic.test` });
      await createUser(t, { email: 'outsider@basic.test' });
      await createUser(t, { email: 'delta@basic.test', alsoIn: [domainId] });
    });

    it('any member lists the domain’s users in the basic form, page style', async () => {
      for (const path of [`${USERS}/basic/`, `${USERS}/basic`]) {
        const res = await t.http.get(path).set(h).expect(200);
        expect(res.body.objects.map((u: { email: string }) => u.email)).toEqual([
          'alpha@basic.test',
          'bravo@basic.test',
          'charlie@basic.test',
          'delta@basic.test',
          'member@basic.test',
        ]);
        expect(res.body.objects[0]).toEqual({
          id: expect.any(String),
          email: 'alpha@basic.test',
          first_name: 'Test',
          last_name: 'User',
          type: 'STANDARD',
          status: 'ACTIVE',
        });
        expect(res.body).toMatchObject({ page: 1, pages: 1, per_page: 10, total: 5, next_url: null });
        expect(res.body.first_url).toBe(`${path}?page=1&per_page=10`);
      }
    });

    it('pages, sorts and filters as the full list does', async () => {
      const page = await t.http.get(`${USERS}/basic/`).query({ page: 2, per_page: 2 }).set(h).expect(200);
      expect(page.body.objects.map((u: { email: string }) => u.email)).toEqual([
        'charlie@basic.test',
        'delta@basic.test',
      ]);
      expect(page.body).toMatchObject({ page: 2, pages: 3, total: 5 });
      expect(page.body.next_url).toBe('/API/users/v1/users/basic/?page=3&per_page=2');
      const desc = await t.http
        .get(`${USERS}/basic/`)
        .query({ sort: 'email,desc', per_page: 1 })
        .set(h)
        .expect(200);
      expect(desc.body.objects[0].email).toBe('member@basic.test');
      const found = await t.http.get(`${USERS}/basic/`).query({ query: 'BRAVO' }).set(h).expect(200);
      expect(found.body.objects.map((u: { email: string }) => u.email)).toEqual(['bravo@basic.test']);
      await t.http.get(`${USERS}/basic/`).query({ sort: 'password,asc' }).set(h).expect(400);
      await t.http.get(`${USERS}/basic/`).query({ per_page: 1001 }).set(h).expect(400);
    });

    it('needs a credential; an OAuth token needs user_impersonation', async () => {
      await t.http.get(`${USERS}/basic/`).expect(401);
      const user = await createUser(t);
      const narrow = await tokenFor(t, user, { kind: 'OAUTH', scopes: ['assets:write'] });
      expect((await t.http.get(`${USERS}/basic/`).set(bearer(narrow.token)).expect(403)).body).toEqual({
        errors: ['This route needs the user_impersonation scope'],
      });
      const wide = await tokenFor(t, user, { kind: 'OAUTH', scopes: ['user_impersonation'] });
      await t.http.get(`${USERS}/basic/`).set(bearer(wide.token)).expect(200);
    });
  });

  describe('literal segments that are not routes', () => {
    it('are 404 in the {errors} shape, never a 400 from an {id} route that caught them', async () => {
      const h = await as(t.admin);
      for (const [path, message] of [
        [`${USERS}/nonsense/`, 'User not found'],
        [`${USERS}/nonsense`, 'User not found'],
        [`${USERS}/nonsense/roles/`, 'User not found'],
      ]) {
        const res = await t.http.get(path).set(h).expect(404);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.body).toEqual({ errors: [message] });
      }
      for (const req of [
        t.http.patch(`${USERS}/nonsense/`).set(h).send({ first_name: 'X' }),
        t.http.put(`${USERS}/nonsense/`).set(h).send({ first_name: 'X' }),
        t.http.delete(`${USERS}/nonsense/`).set(h),
        t.http.delete(`${USERS}/invitations/nonsense/`).set(h),
      ]) {
        expect((await req.expect(404)).body).toEqual({ errors: [expect.stringMatching(/ not found$/)] });
      }
    });

    it('the fixed paths are routes of their own, not ids', async () => {
      const h = await as(t.admin);
      await t.http.get(`${USERS}/current/`).set(h).expect(200);
      await t.http.get(`${USERS}/basic/`).set(h).expect(200);
      await t.http.get(`${USERS}/invitations/`).set(h).expect(200);
    });
  });
});
