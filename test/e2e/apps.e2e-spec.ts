import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { sha256Hex } from '../../src/base/common/crypto/secrets.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const APPS = '/API/auth/v1/apps/';

describe('applications /API/auth/v1/apps/', () => {
  let t: TestApp;
  let admin: UserEntity;
  let adminToken: string;
  let member: UserEntity;
  let otherDomainId: string;
  let otherDomainUser: UserEntity;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { isAdmin: true });
    adminToken = (await tokenFor(t, admin)).token;
    member = await createUser(t);
    otherDomainId = (await createDomain(t)).id;
    otherDomainUser = await createUser(t, { domainId: otherDomainId });
  });
  afterAll(() => t.close());

  const as = async (roles: string[]) => (await tokenFor(t, await createUser(t, { roles }))).token;
  const create = (body: Record<string, unknown>, token = adminToken) =>
    t.http.post(APPS).set(bearer(token)).send(body);

  describe('list (cursor style)', () => {
    let domainId: string;
    let token: string;
    const ids: string[] = [];

    beforeAll(async () => {
      // a fresh domain so the count is exact
      domainId = (await createDomain(t)).id;
      const a = await createUser(t, { domainId, isAdmin: true });
      token = (await tokenFor(t, a)).token;
      for (let i = 0; i < 5; i++) ids.push((await createApp(t, { domainId, name: `l${i}` })).id);
      ids.sort();
    });

    it('pages through every app with per_page and last_id; next_url carries last_id', async () => {
      const seen: string[] = [];
      let url: string | null = `${APPS}?per_page=2`;
      let pages = 0;
      while (url) {
        expect(url.startsWith('/API/')).toBe(true);
        const res: Response = await t.http.get(url).set(bearer(token)).expect(200);
        expect(res.body).toMatchObject({ per_page: 2, total: 5, pages: 3, page: pages + 1 });
        expect(res.body.prev_url).toBeNull();
        expect(res.body.first_url).toBe('/API/auth/v1/apps/?per_page=2');
        seen.push(...res.body.objects.map((o: { id: string }) => o.id));
        if (res.body.next_url) {
          expect(res.body.next_url).toContain(`last_id=${seen[seen.length - 1]}`);
        }
        url = res.body.next_url;
        pages++;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(ids);
    });

    it('defaults per_page to 10 and hides the built-in sign-in app', async () => {
      const res = await t.http.get(APPS).set(bearer(token)).expect(200);
      expect(res.body).toMatchObject({ per_page: 10, total: 5, page: 1, pages: 1, next_url: null });
      expect(res.body.objects.map((o: { name: string }) => o.name).sort()).toEqual([
        'l0',
        'l1',
        'l2',
        'l3',
        'l4',
      ]);
    });

    it('lists only the caller’s domain', async () => {
      const res = await t.http.get(APPS).set(bearer(adminToken)).expect(200);
      for (const o of res.body.objects) expect(o.system_domain_id).toBe(t.domainId);
      expect(res.body.objects.map((o: { id: string }) => o.id)).not.toEqual(expect.arrayContaining([ids[0]]));
    });

    it.each([
      ['per_page=0', 'per_page'],
      ['per_page=1001', 'per_page'],
      ['per_page=abc', 'per_page'],
      ['last_id=nope', 'last_id'],
    ])('%s → 400 naming the field', async (qs, field) => {
      const res = await t.http.get(`${APPS}?${qs}`).set(bearer(token)).expect(400);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(Object.keys(res.body.errors)).toEqual([field]);
      expect(res.body.errors[field]).toEqual(expect.any(String));
    });

    it('per_page=1000 is allowed', async () => {
      await t.http.get(`${APPS}?per_page=1000`).set(bearer(token)).expect(200);
    });
  });

  describe('create: the four scenarios', () => {
    it('service account: PAT, no secret', async () => {
      const res = await create({ name: 'svc', type: 'PAT', default_user_id: member.id }).expect(201);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'svc',
        description: null,
        url: null,
        default_user_id: member.id,
        system_domain_id: t.domainId,
        type: 'PAT',
        oauth_client_type: null,
        allowed_scopes: [],
        redirect_uris: [],
        allowed_origins: [],
        post_logout_redirect_uris: [],
        date_created: expect.any(String),
        date_modified: expect.any(String),
      });
      expect(res.body).not.toHaveProperty('client_secret');
    });

    it('type defaults to PAT', async () => {
      const res = await create({ name: 'plain' }).expect(201);
      expect(res.body.type).toBe('PAT');
    });

    it('backend service: OAUTH confidential with default_user_id, secret once', async () => {
      const res = await create({
        name: 'backend',
        type: 'OAUTH',
        oauth_client_type: 'confidential',
        default_user_id: member.id,
        allowed_scopes: ['assets:read'],
      }).expect(201);
      expect(res.body).toMatchObject({
        type: 'OAUTH',
        oauth_client_type: 'confidential',
        default_user_id: member.id,
        allowed_scopes: ['assets:read'],
        redirect_uris: [],
        client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
    });

    it('server-side app: OAUTH confidential with redirect URIs; blank entries dropped', async () => {
      const res = await create({
        name: 'server',
        type: 'OAUTH',
        oauth_client_type: 'confidential',
        redirect_uris: ['https://app.example.com/cb', '', '   ', 'http://localhost:8080/oauth/cb'],
      }).expect(201);
      expect(res.body.redirect_uris).toEqual([
        'https://app.example.com/cb',
        'http://localhost:8080/oauth/cb',
      ]);
      expect(res.body.client_secret).toEqual(expect.any(String));
    });

    it('browser app: OAUTH public with redirect URIs and allowed origins, no secret', async () => {
      const res = await create({
        name: 'spa',
        type: 'OAUTH',
        oauth_client_type: 'public',
        redirect_uris: ['https://spa.example.com/callback'],
        allowed_origins: ['https://spa.example.com'],
      }).expect(201);
      expect(res.body).toMatchObject({
        oauth_client_type: 'public',
        redirect_uris: ['https://spa.example.com/callback'],
        allowed_origins: ['https://spa.example.com'],
      });
      expect(res.body).not.toHaveProperty('client_secret');
    });

    it('stores only the SHA-256 of the client secret, which GET and list never return', async () => {
      const res = await create({
        name: 'hashed',
        type: 'OAUTH',
        oauth_client_type: 'confidential',
        redirect_uris: ['https://h.example.com/cb'],
      }).expect(201);
      const secret: string = res.body.client_secret;
      const [row] = await t.ds.query('SELECT * FROM apps WHERE id = $1', [res.body.id]);
      expect(row.client_secret_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.client_secret_hash).toBe(sha256Hex(secret));
      for (const v of Object.values(row)) expect(JSON.stringify(v) ?? '').not.toContain(secret);

      const one = await t.http.get(`${APPS}${res.body.id}/`).set(bearer(adminToken)).expect(200);
      expect(one.body).not.toHaveProperty('client_secret');
      expect(one.body).not.toHaveProperty('client_secret_hash');
      const list = await t.http.get(`${APPS}?per_page=1000`).set(bearer(adminToken)).expect(200);
      const listed = list.body.objects.find((o: { id: string }) => o.id === res.body.id);
      expect(listed).toBeDefined();
      expect(listed).not.toHaveProperty('client_secret');
      expect(JSON.stringify(list.body)).not.toContain(secret);
      expect(JSON.stringify(list.body)).not.toContain(row.client_secret_hash);
    });
  });

  describe('create: validation', () => {
    it.each([
      [
        'a relative redirect URI',
        { type: 'OAUTH', oauth_client_type: 'confidential', redirect_uris: ['/cb'] },
        'redirect_uris',
      ],
      [
        'allowed_origins on a confidential app',
        {
          type: 'OAUTH',
          oauth_client_type: 'confidential',
          redirect_uris: ['https://a.example/cb'],
          allowed_origins: ['https://a.example'],
        },
        'allowed_origins',
      ],
      [
        'an OAuth app without client type',
        { type: 'OAUTH', redirect_uris: ['https://a.example/cb'] },
        'oauth_client_type',
      ],
      [
        'a server-side app without redirect URI',
        { type: 'OAUTH', oauth_client_type: 'confidential' },
        'redirect_uris',
      ],
      ['a public app without redirect URI', { type: 'OAUTH', oauth_client_type: 'public' }, 'redirect_uris'],
      ['a PAT app with OAuth fields', { type: 'PAT', oauth_client_type: 'public' }, 'oauth_client_type'],
      ['an unknown type', { type: 'SAML' }, 'type'],
      [
        'an unknown scope',
        {
          type: 'OAUTH',
          oauth_client_type: 'confidential',
          default_user_id: null,
          allowed_scopes: ['root'],
          redirect_uris: ['https://a.example/cb'],
        },
        'allowed_scopes',
      ],
      ['a non-UUID default_user_id', { default_user_id: 'me' }, 'default_user_id'],
      ['a missing name', { name: undefined }, 'name'],
      ['an empty name', { name: '' }, 'name'],
    ])('refuses %s with 400 naming the field', async (_n, body, field) => {
      const res = await create({ name: 'bad', ...body }).expect(400);
      expect(res.body.errors).toHaveProperty(field);
      expect(typeof res.body.errors[field]).toBe('string');
    });

    it.each([
      ['an empty fragment', 'https://a.example/cb#', /must not contain a fragment/],
      ['no // after the scheme', 'https:evil.example', /must be written scheme:\/\/host/],
    ])('refuses a redirect URI with %s (400, nothing stored)', async (_n, uri, message) => {
      const res = await create({
        name: 'bad-redirect',
        type: 'OAUTH',
        oauth_client_type: 'confidential',
        redirect_uris: [uri],
      }).expect(400);
      expect(res.body.errors.redirect_uris).toMatch(message);
    });

    it('stores redirect URIs in the URL standard’s form', async () => {
      const res = await create({
        name: 'normalised',
        type: 'OAUTH',
        oauth_client_type: 'confidential',
        redirect_uris: ['HTTPS://Norm.Example:443/cb', 'https://norm.example/cb', 'https://norm.example'],
      }).expect(201);
      expect(res.body.redirect_uris).toEqual(['https://norm.example/cb', 'https://norm.example/']);
    });

    it('refuses a default_user_id of another domain', async () => {
      const res = await create({ name: 'x', type: 'PAT', default_user_id: otherDomainUser.id }).expect(400);
      expect(res.body).toEqual({ errors: { default_user_id: 'no such user in this domain' } });
    });

    it('ignores unknown fields and read-only fields', async () => {
      const res = await create({
        name: 'extra',
        colour: 'blue',
        id: randomUUID(),
        system_domain_id: otherDomainId,
        date_created: '2000-01-01T00:00:00Z',
        client_secret: 'mine',
      }).expect(201);
      expect(res.body).not.toHaveProperty('colour');
      expect(res.body).not.toHaveProperty('client_secret');
      expect(res.body.system_domain_id).toBe(t.domainId);
      expect(new Date(res.body.date_created).getFullYear()).toBeGreaterThan(2000);
    });

    it('malformed JSON → 400 with a JSON body', async () => {
      const res = await t.http
        .post(APPS)
        .set(bearer(adminToken))
        .set('Content-Type', 'application/json')
        .send('{"name": ')
        .expect(400);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toEqual({ errors: ['Malformed JSON body'] });
    });
  });

  describe('get, update, delete', () => {
    it('GET one; 404 for another domain’s app, the built-in app and unknown ids; 400 for a malformed id', async () => {
      const app = await createApp(t, { name: 'g1' });
      const res = await t.http.get(`${APPS}${app.id}/`).set(bearer(adminToken)).expect(200);
      expect(res.body).toMatchObject({ id: app.id, name: 'g1', type: 'PAT' });

      const foreign = await createApp(t, { domainId: otherDomainId });
      expect((await t.http.get(`${APPS}${foreign.id}/`).set(bearer(adminToken)).expect(404)).body).toEqual({
        errors: ['App not found'],
      });
      const [builtin] = await t.ds.query('SELECT id FROM apps WHERE system_domain_id = $1 AND is_builtin', [
        t.domainId,
      ]);
      await t.http.get(`${APPS}${builtin.id}/`).set(bearer(adminToken)).expect(404);
      await t.http.patch(`${APPS}${builtin.id}/`).set(bearer(adminToken)).send({ name: 'x' }).expect(404);
      await t.http.delete(`${APPS}${builtin.id}/`).set(bearer(adminToken)).expect(404);
      await t.http.get(`${APPS}${randomUUID()}/`).set(bearer(adminToken)).expect(404);
      // a malformed id names nothing: 404 like an unknown one (a literal segment that is not a route too)
      const bad = await t.http.get(`${APPS}not-a-uuid/`).set(bearer(adminToken)).expect(404);
      expect(bad.body).toEqual({ errors: ['App not found'] });
    });

    it('the built-in app is never listed', async () => {
      const res = await t.http.get(`${APPS}?per_page=1000`).set(bearer(adminToken)).expect(200);
      expect(res.body.objects.map((o: { name: string }) => o.name)).not.toContain('Portcullis sign-in');
    });

    it('PATCH with a null name is a 400 naming the field and changes nothing', async () => {
      const created = (await create({ name: 'keeps-its-name', type: 'PAT' }).expect(201)).body;
      const res = await t.http
        .patch(`${APPS}${created.id}/`)
        .set(bearer(adminToken))
        .send({ name: null, description: 'not applied' })
        .expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['name']);
      const again = await t.http.get(`${APPS}${created.id}/`).set(bearer(adminToken)).expect(200);
      expect(again.body).toMatchObject({ name: 'keeps-its-name', description: null });
    });

    it('PUT with the GET body sent back ignores the read-only fields', async () => {
      const created = (
        await create({
          name: 'put1',
          type: 'OAUTH',
          oauth_client_type: 'public',
          redirect_uris: ['https://p.example/cb'],
        }).expect(201)
      ).body;
      const got = (await t.http.get(`${APPS}${created.id}/`).set(bearer(adminToken)).expect(200)).body;
      const res = await t.http
        .put(`${APPS}${created.id}/`)
        .set(bearer(adminToken))
        .send({
          ...got,
          name: 'put1-renamed',
          id: randomUUID(),
          system_domain_id: otherDomainId,
          date_created: '2001-01-01T00:00:00Z',
        })
        .expect(200);
      expect(res.body).toMatchObject({
        id: created.id,
        name: 'put1-renamed',
        system_domain_id: t.domainId,
        date_created: created.date_created,
        type: 'OAUTH',
        oauth_client_type: 'public',
        redirect_uris: ['https://p.example/cb'],
      });
      expect(res.body).not.toHaveProperty('client_secret');
    });

    it('PATCH applies the same rules: relative redirect, origins on confidential, foreign default user', async () => {
      const created = (
        await create({
          name: 'c2',
          type: 'OAUTH',
          oauth_client_type: 'confidential',
          redirect_uris: ['https://c.example/cb'],
        }).expect(201)
      ).body;
      const url = `${APPS}${created.id}/`;
      await t.http
        .patch(url)
        .set(bearer(adminToken))
        .send({ redirect_uris: ['cb'] })
        .expect(400);
      const blank = await t.http.patch(url).set(bearer(adminToken)).send({ name: ' ' }).expect(400);
      expect(blank.body).toEqual({ errors: { name: 'must not be blank' } });
      await t.http
        .patch(url)
        .set(bearer(adminToken))
        .send({ allowed_origins: ['https://c.example'] })
        .expect(400);
      const r = await t.http
        .patch(url)
        .set(bearer(adminToken))
        .send({ default_user_id: otherDomainUser.id })
        .expect(400);
      expect(r.body).toEqual({ errors: { default_user_id: 'no such user in this domain' } });
    });

    it('DELETE → 204 with no body; the app’s tokens stop working on the next request', async () => {
      const created = (await create({ name: 'd1', type: 'PAT', default_user_id: member.id }).expect(201))
        .body;
      const pat = await t.http.post(`${APPS}${created.id}/token/`).set(bearer(adminToken)).expect(200);
      await t.http.get('/API/auth/v1/auth/token/').set(bearer(pat.body.token)).expect(200);
      const del = await t.http.delete(`${APPS}${created.id}/`).set(bearer(adminToken)).expect(204);
      expect(del.text).toBe('');
      await t.http.get(`${APPS}${created.id}/`).set(bearer(adminToken)).expect(404);
      const after = await t.http.get('/API/auth/v1/auth/token/').set(bearer(pat.body.token)).expect(401);
      expect(after.body.errors).toEqual(expect.any(Array));
      await t.http.delete(`${APPS}${created.id}/`).set(bearer(adminToken)).expect(404);
    });

    it('other domain’s app: PUT, PATCH, DELETE → 404', async () => {
      const foreign = await createApp(t, { domainId: otherDomainId });
      await t.http.put(`${APPS}${foreign.id}/`).set(bearer(adminToken)).send({ name: 'x' }).expect(404);
      await t.http.patch(`${APPS}${foreign.id}/`).set(bearer(adminToken)).send({ name: 'x' }).expect(404);
      await t.http.delete(`${APPS}${foreign.id}/`).set(bearer(adminToken)).expect(404);
    });
  });

  it('GET /v1/apps/oauth_scopes/ lists the ten scopes (OpenID Connect’s three with them) to any signed-in caller', async () => {
    const res = await t.http
      .get(`${APPS}oauth_scopes/`)
      .set(bearer((await tokenFor(t, member)).token))
      .expect(200);
    expect(res.body.objects.map((o: { name: string }) => o.name)).toEqual([
      'assets:read',
      'assets:write',
      'assets:delete',
      'collections:read',
      'collections:write',
      'collections:delete',
      'openid',
      'profile',
      'email',
      'user_impersonation',
    ]);
    expect(res.body).toMatchObject({ total: 10, page: 1, pages: 1, next_url: null });
    await t.http.get(`${APPS}oauth_scopes/`).expect(401);
  });

  describe('roles', () => {
    it('a user without can_read_apps → 403 on list and get', async () => {
      const token = (await tokenFor(t, member)).token;
      const app = await createApp(t);
      const res = await t.http.get(APPS).set(bearer(token)).expect(403);
      expect(res.body).toEqual({ errors: ['Missing role: can_read_apps'] });
      await t.http.get(`${APPS}${app.id}/`).set(bearer(token)).expect(403);
    });

    it('can_read_apps lists and gets, but cannot create, update or delete', async () => {
      const token = await as(['can_read_apps']);
      const app = await createApp(t);
      await t.http.get(APPS).set(bearer(token)).expect(200);
      await t.http.get(`${APPS}${app.id}/`).set(bearer(token)).expect(200);
      await create({ name: 'nope' }, token).expect(403);
      await t.http.patch(`${APPS}${app.id}/`).set(bearer(token)).send({ name: 'x' }).expect(403);
      await t.http.delete(`${APPS}${app.id}/`).set(bearer(token)).expect(403);
    });

    it('can_write_apps without being an administrator → 403 on POST; PATCH of plain fields allowed', async () => {
      const token = await as(['can_read_apps', 'can_write_apps']);
      const res = await create({ name: 'nope' }, token).expect(403);
      expect(res.body).toEqual({ errors: ['Requires an administrator'] });
      const app = await createApp(t);
      const p = await t.http
        .patch(`${APPS}${app.id}/`)
        .set(bearer(token))
        .send({ description: 'd' })
        .expect(200);
      expect(p.body.description).toBe('d');
    });

    it('can_delete_apps deletes', async () => {
      const token = await as(['can_delete_apps']);
      const app = await createApp(t);
      await t.http.delete(`${APPS}${app.id}/`).set(bearer(token)).expect(204);
    });

    it('the super administrator and a domain administrator can create', async () => {
      const superToken = (await tokenFor(t, t.admin)).token;
      await create({ name: 'by-super' }, superToken).expect(201);
      await create({ name: 'by-admin' }).expect(201);
    });
  });
  describe('redirect URIs that could mislead or leak', () => {
    it.each([
      'https://user:pass@app.example.com/cb',
      'https://app.example.com@evil.example/cb',
      'blob:https://app.example.com/1f2e',
    ])('%s → 400 on create and on PATCH, nothing stored', async (uri) => {
      const res = await create({
        name: 'r',
        type: 'OAUTH',
        oauth_client_type: 'confidential',
        redirect_uris: [uri],
      }).expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['redirect_uris']);
      const ok = await create({
        name: 'r2',
        type: 'OAUTH',
        oauth_client_type: 'confidential',
        redirect_uris: ['https://app.example.com/cb'],
      }).expect(201);
      await t.http
        .patch(`/API/auth/v1/apps/${ok.body.id}/`)
        .set(bearer(adminToken))
        .send({ redirect_uris: [uri] })
        .expect(400);
      const after = await t.http.get(`/API/auth/v1/apps/${ok.body.id}/`).set(bearer(adminToken)).expect(200);
      expect(after.body.redirect_uris).toEqual(['https://app.example.com/cb']);
    });
  });

  describe('post-logout redirect URIs (OpenID Connect RP-initiated logout)', () => {
    const oauth = (over: Record<string, unknown> = {}) =>
      create({
        name: 'logout',
        type: 'OAUTH',
        oauth_client_type: 'public',
        redirect_uris: ['https://rp.example/cb'],
        ...over,
      });
    const get = async (id: string) =>
      (await t.http.get(`${APPS}${id}/`).set(bearer(adminToken)).expect(200)).body;
    const patch = (id: string, body: Record<string, unknown>) =>
      t.http.patch(`${APPS}${id}/`).set(bearer(adminToken)).send(body);

    it('round trip: create, GET, list, PATCH, PUT with the GET body; absent in a PATCH keeps them', async () => {
      const created = (await oauth({ post_logout_redirect_uris: ['https://rp.example/bye'] }).expect(201))
        .body;
      expect(created.post_logout_redirect_uris).toEqual(['https://rp.example/bye']);
      expect((await get(created.id)).post_logout_redirect_uris).toEqual(['https://rp.example/bye']);
      const list = await t.http.get(`${APPS}?per_page=1000`).set(bearer(adminToken)).expect(200);
      const listed = list.body.objects.find((o: { id: string }) => o.id === created.id);
      expect(listed.post_logout_redirect_uris).toEqual(['https://rp.example/bye']);

      const renamed = await patch(created.id, { name: 'logout-renamed' }).expect(200);
      expect(renamed.body.post_logout_redirect_uris).toEqual(['https://rp.example/bye']);
      const changed = await patch(created.id, {
        post_logout_redirect_uris: ['https://rp.example/signed-out', 'https://rp.example/bye'],
      }).expect(200);
      expect(changed.body.post_logout_redirect_uris).toEqual([
        'https://rp.example/signed-out',
        'https://rp.example/bye',
      ]);
      const got = await get(created.id);
      expect(got.post_logout_redirect_uris).toEqual(changed.body.post_logout_redirect_uris);
      const put = await t.http.put(`${APPS}${created.id}/`).set(bearer(adminToken)).send(got).expect(200);
      expect(put.body.post_logout_redirect_uris).toEqual(changed.body.post_logout_redirect_uris);
      const cleared = await patch(created.id, { post_logout_redirect_uris: [] }).expect(200);
      expect(cleared.body.post_logout_redirect_uris).toEqual([]);
      const [row] = await t.ds.query('SELECT post_logout_redirect_uris FROM apps WHERE id = $1', [
        created.id,
      ]);
      expect(row.post_logout_redirect_uris).toEqual([]);
    });

    it('defaults to none on an OAuth app created without them', async () => {
      const created = (await oauth().expect(201)).body;
      expect(created.post_logout_redirect_uris).toEqual([]);
    });

    it('stores them in the URL standard’s form: blanks dropped, duplicates removed after normalising', async () => {
      const res = await oauth({
        post_logout_redirect_uris: [
          'HTTPS://RP.Example:443/bye',
          '',
          '  ',
          'https://rp.example/bye',
          'https://rp.example',
        ],
      }).expect(201);
      expect(res.body.post_logout_redirect_uris).toEqual(['https://rp.example/bye', 'https://rp.example/']);
      const patched = await patch(res.body.id, {
        post_logout_redirect_uris: [' http://LOCALHOST:8080/a b '],
      }).expect(200);
      expect(patched.body.post_logout_redirect_uris).toEqual(['http://localhost:8080/a%20b']);
    });

    it.each([
      ['a fragment', 'https://rp.example/bye#top', /must not contain a fragment/],
      ['an empty fragment', 'https://rp.example/bye#', /must not contain a fragment/],
      ['a javascript: URI', 'javascript:alert(document.cookie)', /forbidden scheme/],
      ['a data: URI', 'data:text/html,<script>alert(1)</script>', /forbidden scheme/],
      ['user information', 'https://user:pass@rp.example/bye', /must not contain user information/],
      ['a misleading user part', 'https://rp.example@evil.example/bye', /must not contain user information/],
      ['no // after the scheme', 'https:evil.example', /must be written scheme:\/\/host/],
      ['a relative URI', '/bye', /is not a full URL/],
    ])('refuses %s with 400 on create and on PATCH, nothing changed', async (_n, uri, message) => {
      const before = await t.http.get(`${APPS}?per_page=1000`).set(bearer(adminToken)).expect(200);
      const refused = await oauth({ name: 'bad-logout', post_logout_redirect_uris: [uri] }).expect(400);
      expect(refused.body).toEqual({ errors: { post_logout_redirect_uris: expect.stringMatching(message) } });
      const after = await t.http.get(`${APPS}?per_page=1000`).set(bearer(adminToken)).expect(200);
      expect(after.body.total).toBe(before.body.total);

      const ok = (await oauth({ post_logout_redirect_uris: ['https://rp.example/bye'] }).expect(201)).body;
      const res = await patch(ok.id, {
        description: 'not applied',
        post_logout_redirect_uris: ['https://rp.example/fine', uri],
      }).expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['post_logout_redirect_uris']);
      expect(await get(ok.id)).toEqual(ok);
    });

    it('refuses entries that are not strings, too many, or too long (400 naming the field)', async () => {
      for (const value of [
        'https://rp.example/bye',
        [42],
        Array.from({ length: 51 }, (_, i) => `https://rp.example/${i}`),
        [`https://rp.example/${'a'.repeat(2001)}`],
      ]) {
        const res = await oauth({ post_logout_redirect_uris: value }).expect(400);
        expect(Object.keys(res.body.errors)).toEqual(['post_logout_redirect_uris']);
      }
    });

    it('a PAT app with entries is refused (400, as redirect_uris is), on create and on PATCH; empty is fine', async () => {
      const res = await create({
        name: 'pat-logout',
        type: 'PAT',
        post_logout_redirect_uris: ['https://rp.example/bye'],
      }).expect(400);
      expect(res.body).toEqual({ errors: { post_logout_redirect_uris: 'applies to OAuth apps only' } });
      const pat = (
        await create({ name: 'pat-logout', type: 'PAT', post_logout_redirect_uris: [''] }).expect(201)
      ).body;
      expect(pat.post_logout_redirect_uris).toEqual([]);
      const patched = await patch(pat.id, { post_logout_redirect_uris: ['https://rp.example/bye'] }).expect(
        400,
      );
      expect(patched.body).toEqual({ errors: { post_logout_redirect_uris: 'applies to OAuth apps only' } });
      expect(await get(pat.id)).toEqual(pat);
    });
  });
});
