import { randomUUID } from 'node:crypto';
import { In } from 'typeorm';
import { GroupMemberEntity } from '../../src/base/model/group-member.entity.js';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import { UserSystemDomainEntity } from '../../src/base/model/user-system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, login, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const USERS = '/API/users/v1/users';
const ALL_WRITE = ['can_read_users', 'can_write_users', 'can_delete_users'];

describe('users (API/users/v1/users)', () => {
  let t: TestApp;
  /** Bearer headers of a user, minted through the service (in their home domain unless told). */
  const as = async (user: UserEntity, domainId?: string) =>
    bearer((await tokenFor(t, user, { domainId })).token);
  const email = (prefix = 'user') => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
  const passwordHash = async (id: string) =>
    (
      await t.ds
        .getRepository(UserEntity)
        .createQueryBuilder('u')
        .addSelect('u.password_hash')
        .where('u.id = :id', { id })
        .getOneOrFail()
    ).password_hash;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('GET /v1/users/current/', () => {
    it('returns the caller for any token, without a password, with or without the trailing slash', async () => {
      const user = await createUser(t);
      const h = await as(user);
      for (const path of [`${USERS}/current/`, `${USERS}/current`]) {
        const res = await t.http.get(path).set(h).expect(200);
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
          date_created: expect.any(String),
          date_modified: expect.any(String),
          groups: [],
          teams: [],
          role_groups: [],
          primary_group: null,
        });
        expect(JSON.stringify(res.body)).not.toMatch(/password/);
      }
    });

    it('serves super administrators acting in a domain they do not belong to', async () => {
      const other = (await createDomain(t)).id;
      const res = await t.http
        .get(`${USERS}/current/`)
        .set(await as(t.admin, other))
        .expect(200);
      expect(res.body).toMatchObject({ id: t.admin.id, is_super_admin: true, system_domain_id: other });
    });

    it('answers 401 without credentials', async () => {
      const res = await t.http.get(`${USERS}/current/`).expect(401);
      expect(res.body).toEqual({ errors: ['Authentication credentials were not provided'] });
    });
  });

  describe('GET /v1/users/ (list)', () => {
    let domainId: string;
    let h: Record<string, string>;
    let names: string[];

    beforeAll(async () => {
      // a domain of its own, so counts and order are exact
      domainId = (await createDomain(t)).id;
      const reader = await createUser(t, { domainId, roles: ['can_read_users'], email: 'reader@list.test' });
      h = await as(reader);
      names = ['alpha', 'bravo', 'charlie', 'delta'];
      for (const [i, n] of names.entries()) {
        await createUser(t, { domainId, email: `${n}@list.test` });
        await t.ds.getRepository(UserEntity).update({ email: `${n}@list.test` }, { last_name: `Zz${i}%` });
      }
      // members of other domains stay out; a user of both domains is listed in both
      await createUser(t, { email: 'outsider@list.test' });
      await createUser(t, { email: 'echo@list.test', alsoIn: [domainId] });
    });

    it('lists the members of the caller’s domain in the page envelope', async () => {
      const res = await t.http.get(`${USERS}/`).set(h).expect(200);
      expect(res.body.objects.map((u: UserEntity) => u.email)).toEqual([
        'alpha@list.test',
        'bravo@list.test',
        'charlie@list.test',
        'delta@list.test',
        'echo@list.test',
        'reader@list.test',
      ]);
      expect(res.body.objects.every((u: UserEntity) => u.system_domain_id === domainId)).toBe(true);
      expect(res.body).toMatchObject({
        page: 1,
        pages: 1,
        per_page: 10,
        total: 6,
        first_url: '/API/users/v1/users/?page=1&per_page=10',
        next_url: null,
        prev_url: null,
      });
    });

    it('pages with links that start with /API/', async () => {
      const res = await t.http.get(USERS).query({ page: 2, per_page: 2 }).set(h).expect(200);
      expect(res.body.objects.map((u: UserEntity) => u.email)).toEqual([
        'charlie@list.test',
        'delta@list.test',
      ]);
      expect(res.body).toMatchObject({
        page: 2,
        pages: 3,
        per_page: 2,
        total: 6,
        first_url: '/API/users/v1/users?page=1&per_page=2',
        last_url: '/API/users/v1/users?page=3&per_page=2',
        next_url: '/API/users/v1/users?page=3&per_page=2',
        prev_url: '/API/users/v1/users?page=1&per_page=2',
      });
      const beyond = await t.http.get(USERS).query({ page: 50, per_page: 2 }).set(h).expect(200);
      expect(beyond.body.objects).toEqual([]);
    });

    it('filters with query (email, first and last name; case-insensitive; wildcards literal)', async () => {
      const byEmail = await t.http.get(USERS).query({ query: 'BRAVO@' }).set(h).expect(200);
      expect(byEmail.body.objects.map((u: UserEntity) => u.email)).toEqual(['bravo@list.test']);
      expect(byEmail.body.first_url).toBe('/API/users/v1/users?page=1&per_page=10&query=BRAVO%40');
      const byLast = await t.http.get(USERS).query({ query: 'zz2%' }).set(h).expect(200);
      expect(byLast.body.objects.map((u: UserEntity) => u.email)).toEqual(['charlie@list.test']);
      const byFirst = await t.http.get(USERS).query({ query: 'test' }).set(h).expect(200);
      expect(byFirst.body.total).toBe(6);
      const wildcard = await t.http.get(USERS).query({ query: '_' }).set(h).expect(200);
      expect(wildcard.body.total).toBe(0);
    });

    it('sorts on email, first_name, last_name and date_created', async () => {
      const desc = await t.http.get(USERS).query({ sort: 'email,desc', per_page: 2 }).set(h).expect(200);
      expect(desc.body.objects.map((u: UserEntity) => u.email)).toEqual([
        'reader@list.test',
        'echo@list.test',
      ]);
      const byLast = await t.http.get(USERS).query({ sort: 'last_name,desc;email,asc' }).set(h).expect(200);
      expect(byLast.body.objects.slice(0, 4).map((u: UserEntity) => u.email)).toEqual([
        'delta@list.test',
        'charlie@list.test',
        'bravo@list.test',
        'alpha@list.test',
      ]);
      await t.http.get(USERS).query({ sort: 'first_name,asc;date_created,desc' }).set(h).expect(200);
    });

    it.each([
      ['password,asc', 'unknown field'],
      ['email,sideways', 'unknown order'],
      ['email,asc,desc', 'extra part'],
    ])('refuses sort=%s (%s)', async (sort) => {
      const res = await t.http.get(USERS).query({ sort }).set(h).expect(400);
      expect(res.body).toEqual({
        errors: {
          sort: "sort must be field,order pairs separated by ';' with field one of email, first_name, last_name, date_created and order asc or desc",
        },
      });
    });

    it.each([
      [{ per_page: 0 }, { per_page: 'per_page must not be less than 1' }],
      [{ per_page: 1001 }, { per_page: 'per_page must not be greater than 1000' }],
      [{ page: 0 }, { page: 'page must not be less than 1' }],
      [{ page: 10001 }, { page: 'page must not be greater than 10000' }],
      [{ page: 'one' }, { page: 'must be an integer' }],
    ])('refuses out-of-range paging %j', async (query, errors) => {
      const res = await t.http.get(USERS).query(query).set(h).expect(400);
      expect(res.body).toEqual({ errors });
    });

    it('accepts the bounds themselves', async () => {
      await t.http.get(USERS).query({ page: 10000, per_page: 1000 }).set(h).expect(200);
      await t.http.get(USERS).query({ page: 1, per_page: 1 }).set(h).expect(200);
    });

    it('needs can_read_users', async () => {
      const plain = await createUser(t, { domainId });
      const res = await t.http
        .get(USERS)
        .set(await as(plain))
        .expect(403);
      expect(res.body).toEqual({ errors: ['Missing role: can_read_users'] });
      await t.http.get(USERS).expect(401);
    });
  });

  describe('POST /v1/users/', () => {
    let admin: UserEntity;
    let h: Record<string, string>;
    beforeAll(async () => {
      admin = await createUser(t, { isAdmin: true });
      h = await as(admin);
    });

    it('creates a member of the caller’s domain; the password is stored as argon2id and never returned', async () => {
      const address = email('Created');
      const res = await t.http
        .post(`${USERS}/`)
        .set(h)
        .send({ email: address, first_name: 'Ada', last_name: 'Lovelace', password: 'long-enough-pw' })
        .expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        email: address.toLowerCase(),
        first_name: 'Ada',
        last_name: 'Lovelace',
        status: 'ACTIVE',
        type: 'STANDARD',
        is_admin: false,
        is_super_admin: false,
        system_domain_id: t.domainId,
        last_login: null,
        date_created: expect.any(String),
        date_modified: expect.any(String),
        groups: [],
        teams: [],
        role_groups: [],
        primary_group: null,
      });
      expect(JSON.stringify(res.body)).not.toMatch(/password|long-enough-pw/);
      const stored = await passwordHash(res.body.id);
      expect(stored).toMatch(/^\$argon2id\$/);
      expect(
        await t.ds
          .getRepository(UserSystemDomainEntity)
          .countBy({ user_id: res.body.id, system_domain_id: t.domainId }),
      ).toBe(1);
      await login(t, address, 'long-enough-pw');
    });

    it('works without the trailing slash and without a password; is_admin and status are honoured', async () => {
      const res = await t.http
        .post(USERS)
        .set(h)
        .send({ email: email(), is_admin: true, status: 'INACTIVE' })
        .expect(201);
      expect(res.body).toMatchObject({ is_admin: true, status: 'INACTIVE', first_name: null });
      expect(await passwordHash(res.body.id)).toBeNull();
    });

    it('answers 409 when the email exists in any domain (case-insensitively)', async () => {
      const other = await createUser(t, { domainId: (await createDomain(t)).id });
      const res = await t.http.post(USERS).set(h).send({ email: other.email.toUpperCase() }).expect(409);
      expect(res.body).toEqual({ errors: ['A user with this email already exists'] });
    });

    it('normalises emails with NFKC: a fullwidth spelling of an existing address is that address (409)', async () => {
      const res = await t.http
        .post(USERS)
        .set(h)
        .send({ email: 'ａｄｍｉｎ＠ＰＯＲＴＣＵＬＬＩＳ.test' })
        .expect(409);
      expect(res.body).toEqual({ errors: ['A user with this email already exists'] });
      const fresh = `ｆｕｌｌ-${randomUUID().slice(0, 6)}@example.com`;
      const created = await t.http.post(USERS).set(h).send({ email: fresh }).expect(201);
      expect(created.body.email).toBe(fresh.normalize('NFKC'));
    });

    it.each([
      ['zero-width space', 'ad\u200Bmin@portcullis.test', /invisible or text-direction/],
      ['soft hyphen', 'ad\u00ADmin@portcullis.test', /invisible or text-direction/],
      ['RTL override', 'admin\u202E@portcullis.test', /invisible or text-direction/],
      ['BOM', '\uFEFFadmin@portcullis.test', /invisible or text-direction/],
      ['Cyrillic look-alike', '\u0430dmin@portcullis.test', /must not mix Latin with Cyrillic or Greek/],
      [
        'Greek look-alike in the domain',
        'admin@p\u03BFrtcullis.test',
        /must not mix Latin with Cyrillic or Greek/,
      ],
    ])('refuses an email with a %s: 400, nothing created', async (_name, address, message) => {
      const before = await t.ds.getRepository(UserEntity).count();
      const res = await t.http.post(USERS).set(h).send({ email: address }).expect(400);
      expect(res.body.errors.email).toMatch(message);
      expect(await t.ds.getRepository(UserEntity).count()).toBe(before);
    });

    it.each([
      [{}, { email: 'must be a valid email address' }],
      [{ email: 'not-an-email' }, { email: 'must be a valid email address' }],
      [
        { email: 'x@example.com', password: 'short', is_admin: 'yes', status: 'GONE', first_name: 5 },
        {
          first_name: 'first_name must be a string',
          password: 'must be at least 8 characters',
          is_admin: 'must be true or false',
          status: 'must be one of ACTIVE, INACTIVE',
        },
      ],
    ])('validates the body %j', async (body, errors) => {
      const res = await t.http.post(USERS).set(h).send(body).expect(400);
      expect(res.body).toEqual({ errors });
    });

    it('is for administrators holding can_write_users', async () => {
      const writer = await createUser(t, { roles: ALL_WRITE });
      const res = await t.http
        .post(USERS)
        .set(await as(writer))
        .send({ email: email() })
        .expect(403);
      expect(res.body).toEqual({ errors: ['Requires an administrator'] });
      await t.http.post(USERS).send({ email: email() }).expect(401);
    });
  });

  describe('GET /v1/users/{user_id}/', () => {
    it('returns a member of the domain; other domains’ users are 404', async () => {
      const reader = await createUser(t, { roles: ['can_read_users'] });
      const h = await as(reader);
      const member = await createUser(t);
      for (const path of [`${USERS}/${member.id}/`, `${USERS}/${member.id}`]) {
        const res = await t.http.get(path).set(h).expect(200);
        expect(res.body).toMatchObject({ id: member.id, email: member.email });
      }
      const stranger = await createUser(t, { domainId: (await createDomain(t)).id });
      const res = await t.http.get(`${USERS}/${stranger.id}/`).set(h).expect(404);
      expect(res.body).toEqual({ errors: ['User not found'] });
      await t.http.get(`${USERS}/${randomUUID()}/`).set(h).expect(404);
      // a malformed id names nothing either (and a literal segment that is not a route is no 400)
      const malformed = await t.http.get(`${USERS}/not-a-uuid/`).set(h).expect(404);
      expect(malformed.body).toEqual({ errors: ['User not found'] });
    });

    it('needs can_read_users', async () => {
      const plain = await createUser(t);
      const res = await t.http
        .get(`${USERS}/${t.admin.id}/`)
        .set(await as(plain))
        .expect(403);
      expect(res.body).toEqual({ errors: ['Missing role: can_read_users'] });
    });
  });

  describe('PATCH /v1/users/{user_id}/', () => {
    it('lets can_write_users change names, email and password; 409 on a taken email', async () => {
      const writer = await createUser(t, { roles: ALL_WRITE });
      const h = await as(writer);
      const target = await createUser(t);
      const newEmail = email('renamed');
      const res = await t.http
        .patch(`${USERS}/${target.id}/`)
        .set(h)
        .send({ email: newEmail.toUpperCase(), first_name: 'Renamed', password: 'a-new-password' })
        .expect(200);
      expect(res.body).toMatchObject({ email: newEmail, first_name: 'Renamed' });
      await login(t, newEmail, 'a-new-password');
      const taken = await t.http
        .patch(`${USERS}/${target.id}/`)
        .set(h)
        .send({ email: writer.email })
        .expect(409);
      expect(taken.body).toEqual({ errors: ['A user with this email already exists'] });
      // its own email again is no conflict
      await t.http.patch(`${USERS}/${target.id}/`).set(h).send({ email: newEmail }).expect(200);
    });

    it('a new email clears its proof (email_verified_at); a refused, unchanged or other change keeps it', async () => {
      const writer = await createUser(t, { roles: ALL_WRITE });
      const h = await as(writer);
      const target = await createUser(t);
      const users = t.ds.getRepository(UserEntity);
      const verifiedAt = async () => (await users.findOneByOrFail({ id: target.id })).email_verified_at;
      const proved = new Date('2026-01-02T03:04:05Z');
      await users.update({ id: target.id }, { email_verified_at: proved }); // as a mailed link would have
      const patch = (body: Record<string, unknown>, status: number) =>
        t.http.patch(`${USERS}/${target.id}/`).set(h).send(body).expect(status);
      await patch({ first_name: 'Kept', email: target.email }, 200); // its own address again: no change
      await patch({ email: target.email.toUpperCase() }, 200); // stored lower-cased: the same address
      await patch({ email: writer.email }, 409);
      await patch({ email: 'not an email' }, 400);
      await patch({ email: ['a@example.com', 'b@example.com'] }, 400);
      expect(await verifiedAt()).toEqual(proved);
      const moved = email('moved');
      await patch({ email: moved }, 200);
      expect(await verifiedAt()).toBeNull();
      expect((await users.findOneByOrFail({ id: target.id })).email).toBe(moved);
    });

    it('validates the body', async () => {
      const admin = await createUser(t, { isAdmin: true });
      const target = await createUser(t);
      const res = await t.http
        .patch(`${USERS}/${target.id}/`)
        .set(await as(admin))
        .send({ email: null, password: 'short', status: 'ASLEEP', first_name: 5 })
        .expect(400);
      expect(res.body).toEqual({
        errors: {
          email: 'must be a valid email address',
          first_name: 'first_name must be a string',
          password: 'must be at least 8 characters',
          status: 'must be one of ACTIVE, INACTIVE',
        },
      });
    });

    it('deactivation stops the user’s tokens on the next request, and reactivation does not revive them', async () => {
      const admin = await createUser(t, { isAdmin: true });
      const h = await as(admin);
      const target = await createUser(t);
      const old = await as(target);
      await t.http.get(`${USERS}/current/`).set(old).expect(200);
      const res = await t.http
        .patch(`${USERS}/${target.id}/`)
        .set(h)
        .send({ status: 'INACTIVE' })
        .expect(200);
      expect(res.body.status).toBe('INACTIVE');
      expect((await t.http.get(`${USERS}/current/`).set(old).expect(401)).body).toEqual({
        errors: ['Token has been revoked'],
      });
      // the lookup itself refuses inactive users, whatever the token
      const fresh = await as(target);
      expect((await t.http.get(`${USERS}/current/`).set(fresh).expect(401)).body).toEqual({
        errors: ['User is inactive'],
      });
      await t.http.patch(`${USERS}/${target.id}/`).set(h).send({ status: 'ACTIVE' }).expect(200);
      await t.http.get(`${USERS}/current/`).set(old).expect(401);
      await t.http.get(`${USERS}/current/`).set(fresh).expect(200);
    });

    it('makes a shared user an administrator of this domain only', async () => {
      const otherDomain = (await createDomain(t)).id;
      const shared = await createUser(t, { alsoIn: [otherDomain] });
      const admin = await createUser(t, { isAdmin: true });
      const res = await t.http
        .patch(`${USERS}/${shared.id}/`)
        .set(await as(admin))
        .send({ is_admin: true })
        .expect(200);
      expect(res.body.is_admin).toBe(true);
      // here: an administrator; in the other domain: still a plain member
      const here = await tokenFor(t, shared);
      await t.http.get('/API/auth/v1/apps/').set(bearer(here.token)).expect(200);
      const there = await tokenFor(t, shared, { domainId: otherDomain });
      const refused = await t.http.get('/API/auth/v1/apps/').set(bearer(there.token)).expect(403);
      expect(refused.body).toEqual({ errors: ['Missing role: can_read_apps'] });
      const seenThere = await t.http.get('/API/users/v1/users/current/').set(bearer(there.token)).expect(200);
      expect(seenThere.body.is_admin).toBe(false);
    });

    it('applies the OAuth token’s scopes to can_write_users', async () => {
      const writer = await createUser(t, { roles: ALL_WRITE });
      const target = await createUser(t);
      const { token } = await tokenFor(t, writer, { kind: 'OAUTH', scopes: ['assets:read'] });
      const res = await t.http
        .patch(`${USERS}/${target.id}/`)
        .set(bearer(token))
        .send({ first_name: 'X' })
        .expect(403);
      // the route needs no role (users rename themselves), so a narrow OAuth token needs user_impersonation
      expect(res.body).toEqual({ errors: ['This route needs the user_impersonation scope'] });
      const wide = await tokenFor(t, writer, { kind: 'OAUTH', scopes: ['user_impersonation'] });
      await t.http
        .patch(`${USERS}/${target.id}/`)
        .set(bearer(wide.token))
        .send({ first_name: 'X' })
        .expect(200);
    });

    it('answers 404 for another domain’s user', async () => {
      const admin = await createUser(t, { isAdmin: true });
      const stranger = await createUser(t, { domainId: (await createDomain(t)).id });
      const res = await t.http
        .patch(`${USERS}/${stranger.id}/`)
        .set(await as(admin))
        .send({ first_name: 'X' })
        .expect(404);
      expect(res.body).toEqual({ errors: ['User not found'] });
    });
  });

  describe('DELETE /v1/users/{user_id}/', () => {
    it('deletes a user of one domain outright; their tokens stop working', async () => {
      const admin = await createUser(t, { isAdmin: true });
      const h = await as(admin);
      const target = await createUser(t);
      const theirs = await as(target);
      await t.http.delete(`${USERS}/${target.id}`).set(h).expect(204);
      expect(await t.ds.getRepository(UserEntity).existsBy({ id: target.id })).toBe(false);
      await t.http.get(`${USERS}/current/`).set(theirs).expect(401);
      await t.http.get(`${USERS}/${target.id}/`).set(h).expect(404);
      await t.http.delete(`${USERS}/${target.id}/`).set(h).expect(404);
    });

    it('only removes the membership of a user of several domains', async () => {
      const other = (await createDomain(t)).id;
      const admin = await createUser(t, { isAdmin: true });
      const target = await createUser(t, { alsoIn: [other], roles: ['can_read_users'] });
      const here = await tokenFor(t, target);
      const there = await as(target, other);
      await t.http
        .delete(`${USERS}/${target.id}/`)
        .set(await as(admin))
        .expect(204);
      const kept = await t.ds.getRepository(UserEntity).findOneByOrFail({ id: target.id });
      expect(kept.system_domain_id).toBe(other); // the home domain moved to the remaining membership
      expect(await t.ds.getRepository(UserSystemDomainEntity).findBy({ user_id: target.id })).toEqual([
        expect.objectContaining({ system_domain_id: other }),
      ]);
      expect(await t.ds.getRepository(GroupMemberEntity).countBy({ user_id: target.id })).toBe(0);
      await t.http.get(`${USERS}/current/`).set(bearer(here.token)).expect(401);
      const res = await t.http.get(`${USERS}/current/`).set(there).expect(200);
      expect(res.body.system_domain_id).toBe(other);
    });

    it('removals from two domains at once leave no account without a domain', async () => {
      const other = (await createDomain(t)).id;
      const here = await as(await createUser(t, { isAdmin: true }));
      const there = await as(await createUser(t, { isAdmin: true, domainId: other }));
      const targets = await Promise.all(Array.from({ length: 8 }, () => createUser(t, { alsoIn: [other] })));
      await Promise.all(
        targets.flatMap((target) => [
          t.http.delete(`${USERS}/${target.id}/`).set(here).expect(204),
          t.http.delete(`${USERS}/${target.id}/`).set(there).expect(204),
        ]),
      );
      const left = await t.ds.getRepository(UserEntity).countBy({ id: In(targets.map((u) => u.id)) });
      expect(left).toBe(0);
    });

    it('answers 404 for another domain’s user, who stays', async () => {
      // refusing yourself and outranking are UsersService's rules: users.service.spec.ts
      const deleter = await createUser(t, { roles: ALL_WRITE });
      const stranger = await createUser(t, { domainId: (await createDomain(t)).id });
      await t.http
        .delete(`${USERS}/${stranger.id}/`)
        .set(await as(deleter))
        .expect(404);
      expect(await t.ds.getRepository(UserEntity).existsBy({ id: stranger.id })).toBe(true);
    });

    it('needs can_delete_users', async () => {
      const reader = await createUser(t, { roles: ['can_read_users', 'can_write_users'] });
      const target = await createUser(t);
      const res = await t.http
        .delete(`${USERS}/${target.id}/`)
        .set(await as(reader))
        .expect(403);
      expect(res.body).toEqual({ errors: ['Missing role: can_delete_users'] });
    });
  });

  it('group roles reach the users endpoints on the next request', async () => {
    const user = await createUser(t);
    const h = await as(user);
    await t.http.get(USERS).set(h).expect(403);
    const group = await t.ds.getRepository(GroupEntity).save({
      system_domain_id: t.domainId,
      name: `readers-${randomUUID().slice(0, 8)}`,
      roles: ['can_read_users'],
    });
    await t.ds.getRepository(GroupMemberEntity).insert({ group_id: group.id, user_id: user.id });
    await t.http.get(USERS).set(h).expect(200);
  });
  describe('type (what published clients require on every user object)', () => {
    it('defaults to STANDARD, is set by administrators, and is on every user object', async () => {
      const admin = await createUser(t, { isAdmin: true });
      const h = await as(admin);
      const created = await t.http
        .post(`${USERS}/`)
        .set(h)
        .send({ email: email('power'), type: 'POWER' })
        .expect(201);
      expect(created.body.type).toBe('POWER');
      expect((await t.http.get(`${USERS}/${created.body.id}/`).set(h).expect(200)).body.type).toBe('POWER');
      const list = await t.http.get(`${USERS}/?per_page=1000`).set(h).expect(200);
      for (const u of list.body.objects)
        expect(['BROWSE_API_ONLY', 'BROWSE_ONLY', 'POWER', 'STANDARD']).toContain(u.type);
      expect((await t.http.get(`${USERS}/current/`).set(h).expect(200)).body.type).toBe('STANDARD');
      const changed = await t.http
        .patch(`${USERS}/${created.body.id}/`)
        .set(h)
        .send({ type: 'BROWSE_ONLY' })
        .expect(200);
      expect(changed.body.type).toBe('BROWSE_ONLY');
      await t.http.patch(`${USERS}/${created.body.id}/`).set(h).send({ type: 'ROOT' }).expect(400);
    });
  });
});
