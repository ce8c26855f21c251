import { createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

/** Hostile input is a 400 in the spec's shape before any service sees it, on every surface. */
describe('hostile input', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const deepJson = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
  const rows = async () =>
    (await t.ds.query(`SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM apps) AS n`))[0]
      .n as string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer((await tokenFor(t, t.admin)).token);
  });
  afterAll(() => t.close());

  it('JSON nested 2,000 levels deep: 400 on an anonymous route and on an authenticated one', async () => {
    for (const [path, headers] of [
      ['/API/auth/v1/auth/simple/login/', {}],
      ['/API/auth/v1/apps/', admin],
      ['/API/users/v1/users/', admin],
    ] as const) {
      const res = await t.http
        .post(path)
        .set(headers)
        .set('Content-Type', 'application/json')
        .send(deepJson(2000))
        .expect(400);
      expect(res.body).toEqual({ errors: ['Request body is nested more than 32 levels deep'] });
    }
  });

  it('NUL and lone surrogates in any string field: 400 naming the field, nothing written', async () => {
    const before = await rows();
    const cases: [string, Record<string, unknown>, Record<string, string>][] = [
      [
        '/API/auth/v1/auth/simple/login/',
        { email: 'a\u0000@example.com', password: 'x' },
        { email: 'must not contain NUL characters' },
      ],
      [
        '/API/auth/v1/auth/simple/login/',
        { email: '\uD800@example.com', password: 'x' },
        { email: 'must not contain unpaired UTF-16 surrogates' },
      ],
      [
        '/API/auth/v1/apps/',
        { name: 'bad\u0000name', type: 'PAT' },
        { name: 'must not contain NUL characters' },
      ],
      [
        '/API/users/v1/users/',
        { email: 'n@example.com', first_name: 'x\uDFFF' },
        { first_name: 'must not contain unpaired UTF-16 surrogates' },
      ],
    ];
    for (const [path, body, errors] of cases) {
      const res = await t.http
        .post(path)
        .set(path.includes('login') ? {} : admin)
        .send(body)
        .expect(400);
      expect(res.body).toEqual({ errors });
    }
    expect(await rows()).toBe(before);
  });

  it('NUL in a query string or a path parameter: 400', async () => {
    const q = await t.http.get('/API/users/v1/users/?query=a%00b').set(admin).expect(400);
    expect(q.body).toEqual({ errors: { query: 'must not contain NUL characters' } });
    // invalid UTF-8 in a query decodes to U+FFFD, an ordinary character: no lone surrogate reaches a service
    await t.http.get('/API/users/v1/users/?query=%ED%A0%80').set(admin).expect(200);
    await t.http.get('/API/auth/v1/invitation/abc%00def/').expect(400);
  });

  it('the OAuth token endpoint answers invalid_request in its own error shape', async () => {
    const res = await t.http
      .post('/API/auth/v1/oauth/token/')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: 'x\u0000y', client_secret: 's' })
      .expect(400);
    expect(res.body).toEqual({
      error: 'invalid_request',
      error_description: 'Parameter client_id must not contain NUL characters',
    });
  });

  it('ordinary non-ASCII text still passes', async () => {
    const user = await createUser(t, { isAdmin: true });
    await t.http
      .patch(`/API/users/v1/users/${user.id}/`)
      .set(bearer((await tokenFor(t, user)).token))
      .send({ first_name: 'Zoë 😀 \u202Eabc' })
      .expect(200);
  });
});
