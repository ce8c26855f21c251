import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../utils/create-test-app.js';
import { bearer, login } from '../utils/auth.js';

/**
 * Secrets never reach the logs: with every log line on (trace), a sign-in, a PAT, its use in both credential
 * forms, an OAuth client secret and grant, and a failed sign-in leave none of their secrets in the output.
 */
describe('logs carry no secrets', () => {
  let t: TestApp;
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);

  beforeAll(async () => {
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    t = await createTestApp({ LOG_LEVEL: 'trace' });
  });
  afterAll(async () => {
    process.stdout.write = write;
    await t.close();
  });

  it('keeps passwords, JWTs, client secrets and refresh tokens out of every line', async () => {
    const admin = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    await t.http
      .post('/API/auth/v1/auth/simple/login/')
      .send({ email: ADMIN_EMAIL, password: 'wrong-password-in-logs?' })
      .expect(401);
    const svc = await t.http
      .post('/API/auth/v1/apps/')
      .set(bearer(admin))
      .send({ name: 'svc', type: 'PAT', default_user_id: t.admin.id })
      .expect(201);
    const pat = (await t.http.post(`/API/auth/v1/apps/${svc.body.id}/token/`).set(bearer(admin)).expect(200))
      .body.token as string;
    await t.http.get('/API/auth/v1/auth/token/').set(bearer(pat)).expect(200);
    await t.http
      .get('/API/auth/v1/auth/token/')
      .set({ 'App-ID': svc.body.id, 'Auth-Token': pat })
      .expect(200);
    await t.http.get(`/API/auth/v1/auth/token/?token=${pat}`).set(bearer(pat)).expect(200);
    const backend = await t.http
      .post('/API/auth/v1/apps/')
      .set(bearer(admin))
      .send({
        name: 'backend',
        type: 'OAUTH',
        oauth_client_type: 'confidential',
        default_user_id: t.admin.id,
        allowed_scopes: ['assets:read'],
      })
      .expect(201);
    const secret = backend.body.client_secret as string;
    const grant = await t.http
      .post('/API/auth/v1/oauth/token/')
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: backend.body.id, client_secret: secret })
      .expect(200);

    const output = lines.join('');
    expect(output.length).toBeGreaterThan(1000); // the logger really was writing
    // request lines are there, with their path but never the query string
    expect(output).toContain('"path":"/API/auth/v1/auth/token/"');
    expect(output).not.toContain('?token=');
    // one line per request: debug for a success, info for a client error, with the request id sent back
    const requests = lines
      .flatMap((l) => l.split('\n'))
      .filter((l) => l.includes('"msg":"request completed"'))
      .map(
        (l) =>
          JSON.parse(l) as { level: number; req: { id: string; path: string }; res: { statusCode: number } },
      );
    const failed = requests.find(
      (r) => r.req.path === '/API/auth/v1/auth/simple/login/' && r.res.statusCode === 401,
    );
    expect(failed?.level).toBe(30);
    expect(requests.find((r) => r.res.statusCode === 200)?.level).toBe(20);
    expect(grant.headers['x-request-id']).toEqual(expect.any(String));
    expect(
      requests.some(
        (r) => r.req.id === grant.headers['x-request-id'] && r.req.path === '/API/auth/v1/oauth/token/',
      ),
    ).toBe(true);
    for (const value of [
      ADMIN_PASSWORD,
      'wrong-password-in-logs?',
      admin,
      pat,
      secret,
      grant.body.access_token,
    ]) {
      expect(output).not.toContain(value);
    }
  });
  it('redacts the secret of secret-bearing paths (external auth, invitation links), also on 4xx', async () => {
    const admin = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const app = await t.http
      .post('/API/auth/v1/apps/')
      .set(bearer(admin))
      .send({ name: 'ext', type: 'PAT' })
      .expect(201);
    const approved = 'external-auth-secret-in-the-path-0001';
    await t.http
      .post('/API/auth/v1/apps/external/auth/')
      .set(bearer(admin))
      .send({ secret: approved, app_id: app.body.id })
      .expect(201);
    const unknown = 'external-auth-secret-in-the-path-0002';
    const from = lines.length;
    await t.http.get(`/API/auth/v1/apps/external/auth/${approved}/`).expect(200);
    await t.http.get(`/API/auth/v1/apps/external/auth/${unknown}/`).expect(404);
    await t.http.get(`/API/auth/v1/invitation/${unknown}/`).expect(404);
    const output = lines.slice(from).join('');
    expect(output).toContain('"path":"/API/auth/v1/apps/external/auth/[redacted]/"');
    expect(output).toContain('"path":"/API/auth/v1/invitation/[redacted]/"');
    expect(output).not.toContain(approved);
    expect(output).not.toContain(unknown);
  });
});
