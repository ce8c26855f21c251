import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import request from 'supertest';
import { createApp } from '../../src/app/app.factory.js';
import { loadConfig } from '../../src/app/config.js';
import { RateLimiter } from '../../src/base/common/rate-limit/rate-limiter.js';
import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { clientCredentials, createOAuthApp } from '../utils/oauth.js';
import { waitFor } from '../utils/wait-for.js';

const REMAINING = 'ratelimit-remaining';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('rate limiting', () => {
  // A slow sustained rate (2/s) and bounds computed from the measured time: the bucket drains while requests
  // are in flight, by as much as the elapsed time says, however loaded the machine is.
  describe('per user and token (small budget: 20 burst, 2/s)', () => {
    const BURST = 20;
    const RATE = 2;
    const drainedIn = (ms: number) => (ms / 1000) * RATE;
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMIT_BURST: String(BURST), RATE_LIMIT_PER_SECOND: String(RATE) });
    });
    afterAll(() => t.close());

    it('counts down RateLimit-Remaining, then 429 with Retry-After in the spec’s error shape', async () => {
      const user = await createUser(t);
      const { token } = await tokenFor(t, user);
      const seen: number[] = [];
      for (let i = 0; i < BURST; i++) {
        const res = await t.http.get('/API/auth/v1/auth/token/').set(bearer(token)).expect(200);
        seen.push(Number(res.headers[REMAINING]));
      }
      // the bucket drains while the loop runs, so the count may pause; it never rises past the start
      expect(seen[0]).toBe(BURST - 1);
      expect(seen.every((n, i) => i === 0 || n <= seen[i - 1] + 1)).toBe(true);
      let refused: request.Response | undefined;
      // each attempt adds one and the drain takes back RATE per second: a refusal comes as long as an
      // attempt takes under half a second, however slow; the cap only keeps a broken limiter from looping
      for (let i = 0; i < 200 && !refused; i++) {
        const res = await t.http.get('/API/auth/v1/auth/token/').set(bearer(token));
        if (res.status === 429) refused = res;
        else expect(res.status).toBe(200);
      }
      expect(refused).toBeDefined();
      expect(refused!.headers[REMAINING]).toBe('0');
      expect(Number(refused!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused!.body).toEqual({ errors: [expect.stringMatching(/^Rate limit reached/)] });
      expect(refused!.headers['x-error-code']).toBe('rate_limit.EXCEEDED');
    });

    it('refills at the sustained rate', async () => {
      const user = await createUser(t);
      const { token } = await tokenFor(t, user);
      const started = Date.now();
      const burst = await Promise.all(
        Array.from({ length: 40 }, () => t.http.get('/API/auth/v1/auth/token/').set(bearer(token))),
      );
      const first = burst.filter((r) => r.status === 200).length;
      expect(first).toBeGreaterThanOrEqual(BURST);
      expect(first).toBeLessThanOrEqual(BURST + Math.ceil(drainedIn(Date.now() - started)));
      expect(burst.some((r) => r.status === 429)).toBe(true);
      // real time, on purpose: with Redis the bucket drains by Redis's own clock (TIME), which no test moves
      await sleep(2000); // 4 drained at 2 per second
      const after = await Promise.all(
        Array.from({ length: 20 }, () => t.http.get('/API/auth/v1/auth/token/').set(bearer(token))),
      );
      const admitted = after.filter((r) => r.status === 200).length;
      expect(admitted).toBeGreaterThanOrEqual(Math.floor(drainedIn(2000)));
      // over the whole test, no more than the burst and what drained meanwhile (+1 for a part-drained unit)
      expect(first + admitted).toBeLessThanOrEqual(BURST + Math.ceil(drainedIn(Date.now() - started)) + 1);
    });

    it('keeps a separate bucket per token, and per user', async () => {
      const user = await createUser(t);
      const first = await tokenFor(t, user);
      const second = await tokenFor(t, user);
      const other = await tokenFor(t, await createUser(t));
      // fill the first token's bucket until it refuses (the cap only keeps a broken limiter from looping)
      let status = 200;
      for (let i = 0; i < 200 && status !== 429; i++) {
        status = (await t.http.get('/API/auth/v1/auth/token/').set(bearer(first.token))).status;
      }
      expect(status).toBe(429);
      const fresh = await t.http.get('/API/auth/v1/auth/token/').set(bearer(second.token)).expect(200);
      expect(Number(fresh.headers[REMAINING])).toBeGreaterThanOrEqual(BURST - 2);
      await t.http.get('/API/auth/v1/auth/token/').set(bearer(other.token)).expect(200);
    });

    it('a refused request does not refill the bucket of a client that keeps hammering', async () => {
      const user = await createUser(t);
      const { token } = await tokenFor(t, user);
      await Promise.all(
        Array.from({ length: 200 }, () => t.http.get('/API/users/v1/users/current/').set(bearer(token))),
      );
      // hammering added nothing: the bucket is full, and one unit drains in half a second (Redis's clock)
      await sleep(600);
      await t.http.get('/API/users/v1/users/current/').set(bearer(token)).expect(200);
    });
  });

  describe('RateLimit-Remaining on every response class', () => {
    let t: TestApp;
    let token: string;
    beforeAll(async () => {
      t = await createTestApp();
      token = (await tokenFor(t, await createUser(t, { isAdmin: true }))).token;
    });
    afterAll(() => t.close());

    const cases: Array<[string, (t: TestApp) => request.Test, number]> = [
      ['200 authenticated', (t) => t.http.get('/API/auth/v1/apps/').set(bearer(token)), 200],
      [
        '201 authenticated',
        (t) => t.http.post('/API/auth/v1/apps/').set(bearer(token)).send({ name: 'h' }),
        201,
      ],
      ['400 validation', (t) => t.http.post('/API/auth/v1/apps/').set(bearer(token)).send({ name: 5 }), 400],
      ['401 no credentials', (t) => t.http.get('/API/auth/v1/apps/'), 401],
      ['401 forged token', (t) => t.http.get('/API/auth/v1/apps/').set(bearer('x.y.z')), 401],
      ['404 unknown id', (t) => t.http.get(`/API/auth/v1/apps/${randomUUID()}/`).set(bearer(token)), 404],
      ['404 unknown path', (t) => t.http.get('/API/auth/v1/nothing-here/'), 404],
      ['404 unknown path, with credentials', (t) => t.http.get('/API/auth/nothing/').set(bearer(token)), 404],
      ['405', (t) => t.http.patch('/API/auth/livez/'), 405],
      [
        '400 malformed JSON',
        (t) =>
          t.http
            .post('/API/auth/v1/auth/simple/login/')
            .set('Content-Type', 'application/json')
            .send('{"email":'),
        400,
      ],
      [
        '413 body too large',
        (t) =>
          t.http
            .post('/API/auth/v1/apps/')
            .set(bearer(token))
            .send({ name: 'x'.repeat(200_000) }),
        413,
      ],
      ['200 public health', (t) => t.http.get('/API/auth/livez/'), 200],
      ['200 OpenAPI document', (t) => t.http.get('/API/auth/spec/'), 200],
      [
        '401 OAuth token endpoint',
        (t) => t.http.post('/API/auth/v1/oauth/token/').type('form').send({}),
        401,
      ],
      ['200 consent page error', (t) => t.http.get('/oauth/authorize'), 400],
      [
        '401 failed sign-in',
        (t) =>
          t.http
            .post('/API/auth/v1/auth/simple/login/')
            .send({ email: 'no@x.test', password: 'wrong-password' }),
        401,
      ],
    ];
    it.each(cases)('%s', async (_name, call, status) => {
      const res = await call(t);
      expect(res.status).toBe(status);
      expect(res.headers[REMAINING]).toMatch(/^\d+$/);
    });
  });

  describe('per client address, for what has no verified caller', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        RATE_LIMIT_SIGNIN_BURST: '3',
        RATE_LIMIT_SIGNIN_PER_SECOND: '0.01',
        RATE_LIMIT_ANONYMOUS_BURST: '5',
        RATE_LIMIT_ANONYMOUS_PER_SECOND: '0.01',
        RATE_LIMIT_OAUTH_BURST: '4',
        RATE_LIMIT_OAUTH_PER_SECOND: '0.01',
        TRUST_PROXY: '1',
      });
    });
    afterAll(() => t.close());
    const from = (ip: string) => ({ 'X-Forwarded-For': ip });

    it('sign-in has its own small budget: the fourth attempt from one address is a 429, even with the right password', async () => {
      const user = await createUser(t);
      const ip = '203.0.113.10';
      for (let i = 0; i < 3; i++) {
        await t.http
          .post('/API/auth/v1/auth/simple/login/')
          .set(from(ip))
          .send({ email: user.email, password: 'wrong-password' })
          .expect(401);
      }
      const res = await t.http
        .post('/API/auth/v1/auth/simple/login/')
        .set(from(ip))
        .send({ email: user.email, password: DEFAULT_PASSWORD })
        .expect(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(60);
      // another address is not affected, and neither is the anonymous budget of the first
      await t.http
        .post('/API/auth/v1/auth/simple/login/')
        .set(from('203.0.113.11'))
        .send({ email: user.email, password: DEFAULT_PASSWORD })
        .expect(201);
      await t.http.get('/API/auth/livez/').set(from(ip)).expect(200);
    });

    it('failed authentication is charged to the address: guessing tokens ends in 429', async () => {
      const ip = '203.0.113.20';
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await t.http
          .get('/API/auth/v1/apps/')
          .set(from(ip))
          .set(bearer(`guess.${i}.x`));
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    });

    it('the OAuth endpoints answer 429 in RFC 6749 form, with Retry-After', async () => {
      const ip = '203.0.113.30';
      const app = await createOAuthApp(t, { kind: 'backend' });
      for (let i = 0; i < 4; i++) {
        await clientCredentials(t, app).set(from(ip)).expect(200);
      }
      const res = await clientCredentials(t, app).set(from(ip)).expect(429);
      expect(res.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) });
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.headers[REMAINING]).toBe('0');
    });

    it('an IPv6 client is its /64', async () => {
      for (let i = 0; i < 5; i++) {
        await t.http
          .get('/API/auth/livez/')
          .set(from(`2001:db8:1:2::${i + 1}`))
          .expect(200);
      }
      await t.http.get('/API/auth/livez/').set(from('2001:db8:1:2:ffff::1')).expect(429);
      await t.http.get('/API/auth/livez/').set(from('2001:db8:1:3::1')).expect(200);
    });
  });

  it('one user’s tokens share the user’s bucket: more tokens buy no more requests', async () => {
    const t = await createTestApp({ RATE_LIMIT_USER_BURST: '6', RATE_LIMIT_USER_PER_SECOND: '0.01' });
    try {
      const user = await createUser(t);
      const tokens = await Promise.all(Array.from({ length: 5 }, () => tokenFor(t, user)));
      const seen: Array<[number, string]> = [];
      for (let round = 0; round < 2; round++) {
        for (const { token } of tokens) {
          const res = await t.http.get('/API/auth/v1/auth/token/').set(bearer(token));
          seen.push([res.status, res.headers[REMAINING]]);
        }
      }
      // each token's own bucket (1000) is nearly full of room: the header shows the user's, the smaller
      expect(seen.map(([s]) => s)).toEqual([200, 200, 200, 200, 200, 200, 429, 429, 429, 429]);
      expect(seen.map(([, r]) => r)).toEqual(['5', '4', '3', '2', '1', '0', '0', '0', '0', '0']);
      // another user is not affected
      await t.http
        .get('/API/auth/v1/auth/token/')
        .set(bearer((await tokenFor(t, await createUser(t))).token))
        .expect(200);
    } finally {
      await t.close();
    }
  });

  it('TRUST_PROXY=1 trusts one hop: a client-written first X-Forwarded-For entry is not its address', async () => {
    const t = await createTestApp({ TRUST_PROXY: '1' });
    try {
      // the proxy (the test's loopback socket) appended 1.2.3.4; 6.6.6.6 is what the client wrote itself
      const res = await t.http.get('/API/auth/ip/').set('X-Forwarded-For', '6.6.6.6, 1.2.3.4').expect(200);
      expect(res.body).toEqual({ ip: '1.2.3.4' });
    } finally {
      await t.close();
    }
  });

  it('X-Forwarded-For is ignored unless TRUST_PROXY is set', async () => {
    const t = await createTestApp({
      RATE_LIMIT_ANONYMOUS_BURST: '2',
      RATE_LIMIT_ANONYMOUS_PER_SECOND: '0.01',
    });
    try {
      await t.http.get('/API/auth/livez/').set('X-Forwarded-For', '198.51.100.1').expect(200);
      await t.http.get('/API/auth/livez/').set('X-Forwarded-For', '198.51.100.2').expect(200);
      await t.http.get('/API/auth/livez/').set('X-Forwarded-For', '198.51.100.3').expect(429);
    } finally {
      await t.close();
    }
  });

  it('RATE_LIMIT_ENABLED=false switches it off', async () => {
    const t = await createTestApp({
      RATE_LIMIT_ENABLED: 'false',
      RATE_LIMIT_ANONYMOUS_BURST: '1',
      RATE_LIMIT_ANONYMOUS_PER_SECOND: '0.01',
    });
    try {
      for (let i = 0; i < 5; i++) await t.http.get('/API/auth/livez/').expect(200);
    } finally {
      await t.close();
    }
  });
});

/**
 * Instances sharing one Redis share the buckets. Needs Redis (REDIS_URL: CI's PostgreSQL pass); the
 * instances need no common database for it, since the per-address budget is used.
 */
const redisUrl = process.env.REDIS_URL;
(redisUrl ? describe : describe.skip)('rate limiting with Redis', () => {
  const budget = { burst: 200, perSecond: 10 };

  async function instance(namespace: string, redis: string): Promise<NestExpressApplication> {
    return createApp(
      loadConfig({
        DATA_DIR: 'memory://',
        KEY_ENCRYPTION_SECRET: 'test-key-encryption-secret-0123456789',
        BOOTSTRAP_ADMIN_PASSWORD: 'bootstrap-password-1',
        LOG_LEVEL: 'silent',
        REDIS_URL: redis,
        RATE_LIMIT_NAMESPACE: namespace,
        RATE_LIMIT_ANONYMOUS_BURST: String(budget.burst),
        RATE_LIMIT_ANONYMOUS_PER_SECOND: String(budget.perSecond),
      }),
    );
  }

  async function ready(app: NestExpressApplication): Promise<void> {
    // the limiter's connection is up when a request is charged to Redis (no warning state)
    await waitFor(
      async () => {
        await request(app.getHttpServer()).get('/API/auth/livez/'); // a charge is what notices Redis is back
        return app.get(RateLimiter).storage.shared;
      },
      5_000,
      50,
      'the rate limiter’s Redis connection',
    );
  }

  it('two instances on one Redis admit at most 1% more than one instance would', async () => {
    const ns = `test-${randomUUID()}`;
    const [a, b] = await Promise.all([instance(ns, redisUrl!), instance(ns, redisUrl!)]);
    try {
      await Promise.all([ready(a), ready(b)]);
      const started = Date.now();
      const results = await Promise.all(
        Array.from({ length: 400 }, (_, i) =>
          request((i % 2 ? a : b).getHttpServer())
            .get('/API/auth/livez/')
            .then((r) => r.status),
        ),
      );
      const elapsed = (Date.now() - started) / 1000;
      const admitted = results.filter((s) => s === 200).length;
      const oneInstance = budget.burst + budget.perSecond * elapsed;
      expect(admitted).toBeGreaterThanOrEqual(budget.burst);
      expect(admitted).toBeLessThanOrEqual(Math.floor(oneInstance * 1.01));
      expect(results.filter((s) => s === 429).length).toBe(400 - admitted);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('keeps answering when Redis goes away (per instance), and shares again when it is back', async () => {
    // the instance reaches Redis through a proxy this test can cut
    const target = new URL(redisUrl!);
    const sockets = new Set<net.Socket>();
    const proxy = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => s.destroy());
        s.on('close', () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const port = (proxy.address() as net.AddressInfo).port;
    const proxied = new URL(redisUrl!);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(port);
    const app = await instance(`test-${randomUUID()}`, proxied.toString());
    try {
      await ready(app);
      await request(app.getHttpServer()).get('/API/auth/livez/').expect(200);
      // Redis gone: close the proxy and every connection through it
      await new Promise<void>((r) => {
        proxy.close(() => r());
        for (const s of sockets) s.destroy();
      });
      const during = await Promise.all(
        Array.from({ length: 20 }, () => request(app.getHttpServer()).get('/API/auth/livez/')),
      );
      for (const r of during) {
        expect(r.status).toBe(200);
        expect(r.headers[REMAINING]).toMatch(/^\d+$/);
      }
      // authenticated routes too: the service never 500s for want of Redis
      await request(app.getHttpServer()).get('/API/auth/v1/apps/').expect(401);
      // Redis back on the same port: the buckets are shared again
      await new Promise<void>((r) => proxy.listen(port, '127.0.0.1', r));
      await ready(app);
      await request(app.getHttpServer()).get('/API/auth/livez/').expect(200);
    } finally {
      await app.close();
      proxy.close();
    }
  }, 30_000);
});
