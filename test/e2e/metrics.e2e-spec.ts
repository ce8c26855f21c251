import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { MetricsServer } from '../../src/delivery/metrics/metrics-server.js';
import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const LOGIN = '/API/auth/v1/auth/simple/login/';
const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

/** A plain GET on a listener outside supertest (the METRICS_PORT server). */
function get(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body, type: String(res.headers['content-type']) }),
      );
    })
      .on('error', reject)
      .end();
  });
}

/** The value of one sample line `name{labels} value`, or undefined. */
function sample(text: string, name: string, labels: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

describe('metrics (GET /metrics with METRICS_TOKEN; METRICS_PORT listener)', () => {
  let t: TestApp;
  const scrape = async () => (await t.http.get('/metrics').set(bearer(METRICS_TOKEN)).expect(200)).text;

  beforeAll(async () => {
    t = await createTestApp({
      METRICS_TOKEN,
      METRICS_PORT: '0',
      LOCKOUT_THRESHOLD: '2',
      RATE_LIMIT_REGISTRATION_BURST: '1',
      RATE_LIMIT_REGISTRATION_PER_SECOND: '0.001',
    });
  });
  afterAll(() => t.close());

  it('not public: no token or a wrong one → 401 in the error shape', async () => {
    const none = await t.http.get('/metrics').expect(401);
    expect(none.body).toEqual({ errors: expect.anything() });
    await t.http.get('/metrics').set(bearer('metrics-token-0123456789abcdeX')).expect(401);
    await t.http
      .get('/metrics')
      .set({ Authorization: `Basic ${METRICS_TOKEN}` })
      .expect(401);
    await t.http
      .get('/metrics')
      .set(bearer('x'.repeat(5000)))
      .expect(401);
  });

  it('requests by route template, method and status; unknown paths as `unmatched`; no id in any label', async () => {
    const admin = await createUser(t, { isAdmin: true });
    const minted = await tokenFor(t, admin);
    const user = await createUser(t);
    await t.http.get(`/API/users/v1/users/${user.id}/`).set(bearer(minted.token)).expect(200);
    const probe = `/no-such-${randomUUID()}`;
    await t.http.get(probe).expect(404);
    const res = await t.http.get('/metrics').set(bearer(METRICS_TOKEN)).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.text;
    expect(
      sample(
        text,
        'portcullis_http_request_duration_seconds_count',
        'route="/API/users/v1/users/:user_id/",method="GET",status="200"',
      ) ??
        sample(
          text,
          'portcullis_http_request_duration_seconds_count',
          'route="/API/users/v1/users/:user_id",method="GET",status="200"',
        ),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(
        text,
        'portcullis_http_request_duration_seconds_count',
        'route="unmatched",method="GET",status="404"',
      ),
    ).toBeGreaterThanOrEqual(1);
    for (const leak of [user.id, admin.id, admin.email, user.email, minted.token, probe, METRICS_TOKEN])
      expect(text).not.toContain(leak);
  });

  it('token validations, sign-ins by outcome and rate-limit refusals by budget', async () => {
    const user = await createUser(t);
    const locked = await createUser(t);
    await t.http.post(LOGIN).send({ email: user.email, password: DEFAULT_PASSWORD }).expect(201);
    await t.http.post(LOGIN).send({ email: locked.email, password: 'wrong-one-1' }).expect(401);
    await t.http.post(LOGIN).send({ email: locked.email, password: 'wrong-two-2' }).expect(401);
    await t.http.post(LOGIN).send({ email: locked.email, password: DEFAULT_PASSWORD }).expect(401);
    await t.http
      .post(LOGIN)
      .send({ email: `ghost-${randomUUID()}@x.test`, password: 'whatever-1' })
      .expect(401);
    await t.http.get('/API/users/v1/users/current/').set(bearer('not.a.token')).expect(401);
    await t.http
      .get('/API/users/v1/users/current/')
      .set(bearer((await tokenFor(t, user)).token))
      .expect(200);
    // the registration budget is one request: the second is refused
    const reg = { email: `r-${randomUUID()}@x.test` };
    await t.http.post('/API/auth/v1/registrations/').send(reg);
    await t.http.post('/API/auth/v1/registrations/').send(reg).expect(429);

    const text = await scrape();
    expect(sample(text, 'portcullis_signins_total', 'outcome="success"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'portcullis_signins_total', 'outcome="wrong_password"')).toBe(2);
    expect(sample(text, 'portcullis_signins_total', 'outcome="locked"')).toBe(1);
    expect(sample(text, 'portcullis_signins_total', 'outcome="unknown_account"')).toBe(1);
    expect(sample(text, 'portcullis_token_validations_total', 'outcome="invalid"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'portcullis_token_validations_total', 'outcome="valid"')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'portcullis_rate_limit_refusals_total', 'budget="registration"')).toBe(1);
    expect(text).not.toContain(user.email);
    expect(text).not.toContain('wrong-one-1');
  });

  it('outbox backlog and failures, database pool, event-loop lag', async () => {
    const text = await scrape();
    expect(text).toMatch(
      /^portcullis_outbox_items\{outbox="(mail|webhook)",status="(pending|failed)"\} \d+$/m,
    );
    expect(sample(text, 'portcullis_db_pool_connections', 'state="total"')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^portcullis_nodejs_eventloop_lag_seconds \d/m);
  });

  it('METRICS_PORT: a listener of its own, /metrics only, the token asked there too', async () => {
    const port = t.get(MetricsServer).port!;
    expect(port).toBeGreaterThan(0);
    expect((await get(port, '/metrics')).status).toBe(401);
    const ok = await get(port, '/metrics', bearer(METRICS_TOKEN));
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain/);
    expect(ok.body).toContain('portcullis_http_request_duration_seconds');
    expect((await get(port, '/API/auth/v1/health/', bearer(METRICS_TOKEN))).status).toBe(404);
  });

  it('without METRICS_TOKEN the API port does not serve them (404)', async () => {
    const plain = await createTestApp();
    try {
      await plain.http.get('/metrics').expect(404);
      await plain.http.get('/metrics').set(bearer(METRICS_TOKEN)).expect(404);
      expect(plain.get(MetricsServer).port).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
