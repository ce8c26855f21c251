import { randomUUID } from 'node:crypto';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { WIRE_DATE_PATTERN } from '../../src/base/common/http/wire-date.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('HTTP conventions', () => {
  let t: TestApp;
  let admin: UserEntity;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { isAdmin: true });
    token = (await tokenFor(t, admin)).token;
  });
  afterAll(() => t.close());

  describe('trailing slash is optional, never a redirect', () => {
    it.each(['/API/auth/v1/apps', '/API/auth/v1/apps/'])('GET %s → 200', async (path) => {
      const res = await t.http.get(path).set(bearer(token)).redirects(0);
      expect(res.status).toBe(200);
      expect(res.body.objects).toEqual(expect.any(Array));
    });

    it.each(['/API/auth/v1/apps', '/API/auth/v1/apps/'])('POST %s → 201', async (path) => {
      const res = await t.http
        .post(path)
        .set(bearer(token))
        .send({ name: `slash ${path}` })
        .redirects(0);
      expect(res.status).toBe(201);
      expect(res.body.name).toBe(`slash ${path}`);
    });

    it.each(['', '/'])('DELETE /API/auth/v1/apps/{id}%s → 204', async (suffix) => {
      const created = await t.http
        .post('/API/auth/v1/apps/')
        .set(bearer(token))
        .send({ name: 'to-delete' })
        .expect(201);
      const res = await t.http
        .delete(`/API/auth/v1/apps/${created.body.id}${suffix}`)
        .set(bearer(token))
        .redirects(0);
      expect(res.status).toBe(204);
    });

    it.each(['/API/auth/v1/auth/simple/login', '/API/auth/v1/auth/simple/login/'])(
      'POST %s → 201',
      async (path) => {
        const res = await t.http
          .post(path)
          .send({ email: admin.email, password: DEFAULT_PASSWORD })
          .redirects(0);
        expect(res.status).toBe(201);
      },
    );

    it.each(['/API/auth/v1/auth/token', '/API/auth/v1/auth/token/'])(
      'GET %s → 200 and 401 alike',
      async (path) => {
        expect((await t.http.get(path).set(bearer(token)).redirects(0)).status).toBe(200);
        expect((await t.http.get(path).redirects(0)).status).toBe(401);
      },
    );
  });

  describe('unknown paths and methods', () => {
    it.each(['/API/auth/v1/nothing-here/', '/nothing', '/API/auth/v1/apps/a/b/c/d/'])(
      'GET %s → 404 JSON',
      async (path) => {
        const res = await t.http.get(path).set(bearer(token)).expect(404);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.body).toEqual({ errors: [expect.any(String)] });
      },
    );

    it.each([
      ['PATCH', '/API/auth/v1/apps/', 'GET, HEAD, POST'],
      ['PUT', '/API/auth/livez/', 'GET, HEAD'],
      ['DELETE', '/API/auth/v1/auth/simple/login', 'POST'],
      ['GET', '/API/auth/v1/auth/simple/login/', 'POST'],
      ['POST', '/API/auth/v1/auth/tokens/', 'GET, HEAD'],
      ['PATCH', '/API/auth/v1/auth/token/', 'DELETE, GET, HEAD, POST, PUT'],
    ])('%s %s → 405 JSON with Allow: %s', async (method, path, allow) => {
      const res = await t.http[method.toLowerCase() as 'get'](path).set(bearer(token)).expect(405);
      expect(res.headers.allow).toBe(allow);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toEqual({ errors: [`Method ${method} not allowed`] });
    });
  });

  describe('every error is JSON', () => {
    it('400 validation, 401, 403, 404, malformed JSON, bad percent-encoding, oversized body', async () => {
      const plain = (await tokenFor(t, await createUser(t))).token;
      const responses = [
        [400, await t.http.get('/API/auth/v1/apps/?per_page=0').set(bearer(token))],
        [401, await t.http.get('/API/auth/v1/apps/')],
        [403, await t.http.get('/API/auth/v1/apps/').set(bearer(plain))],
        [404, await t.http.get('/API/auth/v1/apps/00000000-0000-4000-8000-000000000000/').set(bearer(token))],
        [
          400,
          await t.http
            .post('/API/auth/v1/auth/simple/login/')
            .set('Content-Type', 'application/json')
            .send('{bad json'),
        ],
        [400, await t.http.get('/API/auth/v1/apps/%E0%A4%A/').set(bearer(token))],
        [
          413,
          await t.http
            .post('/API/auth/v1/auth/simple/login/')
            .send({ email: 'a@b.c', password: 'x'.repeat(200_000) }),
        ],
      ] as const;
      for (const [status, res] of responses) {
        expect([res.status, res.headers['content-type']]).toEqual([
          status,
          expect.stringMatching(/application\/json/),
        ]);
        expect(res.body).toHaveProperty('errors');
        const errors = res.body.errors;
        expect(Array.isArray(errors) || (typeof errors === 'object' && errors !== null)).toBe(true);
        expect(JSON.stringify(res.body)).not.toMatch(/at \w+ \(|node_modules|stack/);
      }
    });
  });

  describe('health', () => {
    it('livez, readyz and ip → 200 without credentials, with or without slash', async () => {
      for (const path of ['/API/auth/livez/', '/API/auth/livez']) {
        expect((await t.http.get(path).expect(200)).body).toEqual({ status: 'ok' });
      }
      for (const path of ['/API/auth/readyz/', '/API/auth/readyz']) {
        expect((await t.http.get(path).expect(200)).body).toEqual({ status: 'ok' });
      }
      const ip = await t.http.get('/API/auth/ip/').expect(200);
      expect(ip.body).toEqual({ ip: expect.stringMatching(/\d|:/) });
    });

    it('health routes ignore bad credentials', async () => {
      await t.http.get('/API/auth/livez/').set(bearer('garbage')).expect(200);
    });
  });

  describe('request ids', () => {
    it('echoes an incoming X-Request-Id', async () => {
      const res = await t.http.get('/API/auth/livez/').set('X-Request-Id', 'req-abc.123_x').expect(200);
      expect(res.headers['x-request-id']).toBe('req-abc.123_x');
    });

    it('generates one when absent or unusable, on errors too', async () => {
      const a = await t.http.get('/API/auth/livez/').expect(200);
      expect(a.headers['x-request-id']).toMatch(UUID);
      const b = await t.http.get('/API/auth/v1/apps/').set('X-Request-Id', 'bad id with spaces').expect(401);
      expect(b.headers['x-request-id']).toMatch(UUID);
      const c = await t.http.get('/nope').set('X-Request-Id', 'x'.repeat(200)).expect(404);
      expect(c.headers['x-request-id']).toMatch(UUID);
      const d = await t.http.get('/nope').set('X-Request-Id', 'kept-on-404').expect(404);
      expect(d.headers['x-request-id']).toBe('kept-on-404');
    });
  });

  it('dates are ISO 8601 with microseconds and a numeric offset, on every resource', async () => {
    const h = bearer(token);
    const tokenInfo = await t.http.get('/API/auth/v1/auth/token/').set(h).expect(200);
    const app = await t.http.post('/API/auth/v1/apps/').set(h).send({ name: 'dates' }).expect(201);
    const user = await t.http.get('/API/users/v1/users/current/').set(h).expect(200);
    const group = await t.http
      .post('/API/users/v1/groups/')
      .set(h)
      .send({ name: 'dates', roles: [] })
      .expect(201);
    const apps = await t.http.get('/API/auth/v1/apps/').set(h).expect(200);
    const dated: Array<[string, Record<string, unknown>, string[]]> = [
      ['token', tokenInfo.body, ['expires', 'date_created', 'date_modified']],
      ['app', app.body, ['date_created', 'date_modified']],
      ['app in a list', apps.body.objects[0], ['date_created', 'date_modified']],
      ['user', user.body, ['date_created', 'date_modified']],
      ['group', group.body, ['date_created', 'date_modified']],
    ];
    for (const [what, body, fields] of dated) {
      for (const f of fields)
        expect([what, f, body[f]]).toEqual([what, f, expect.stringMatching(WIRE_DATE_PATTERN)]);
    }
    // the value is the instant, not just its shape
    expect(Math.abs(Date.parse(app.body.date_created) - Date.now())).toBeLessThan(60_000);
  });

  it('does not advertise the framework', async () => {
    const res = await t.http.get('/API/auth/livez/').expect(200);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
  it('a feature’s error carries its code in X-Error-Code beside the spec’s body', async () => {
    const { token } = await tokenFor(t, t.admin);
    const res = await t.http.get(`/API/auth/v1/apps/${randomUUID()}/`).set(bearer(token)).expect(404);
    expect(res.body).toEqual({ errors: ['App not found'] });
    expect(res.headers['x-error-code']).toBe('auth.NOT_FOUND');
    const bad = await t.http.post('/API/auth/v1/apps/').set(bearer(token)).send({ name: 1 }).expect(400);
    expect(bad.headers['x-error-code']).toBe('request.INVALID');
    const anon = await t.http.get('/API/auth/v1/apps/').expect(401);
    expect(anon.headers['x-error-code']).toBe('auth.NO_CREDENTIALS');
  });
});
