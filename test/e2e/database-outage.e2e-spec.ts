import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

/**
 * The database cut under load: every route answers 503 with Retry-After in its surface's error shape, never
 * a 500 (which clients treat as a bug) and never a 401 (which would sign users out).
 */
describe('database outage', () => {
  let t: TestApp;
  let h: Record<string, string>;
  let email: string;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await createUser(t, { isAdmin: true });
    email = admin.email;
    h = bearer((await tokenFor(t, admin)).token);
  });
  afterAll(async () => {
    await t.close().catch(() => undefined);
  });

  const requests = () => [
    t.http.get('/API/auth/v1/auth/token/').set(h),
    t.http.get('/API/auth/v1/apps/').set(h),
    t.http.get('/API/users/v1/users/').set(h),
    t.http.get('/API/users/v1/groups/').set(h),
    t.http.post('/API/auth/v1/auth/simple/login/').send({ email, password: DEFAULT_PASSWORD }),
    t.http.get(`/API/auth/v1/invitation/${'A'.repeat(43)}/`),
  ];

  it('under load, each answer is a success or a 503 with Retry-After; afterwards every route is a 503', async () => {
    const inFlight = Array.from({ length: 8 }, () => requests()).flat();
    const cut = new Promise((r) => setTimeout(r, 15)).then(() => t.ds.destroy());
    const answers = await Promise.all(inFlight.map((r) => r.then((res) => res)));
    await cut;
    for (const res of answers) {
      expect([200, 201, 404, 503]).toContain(res.status);
      if (res.status === 503) {
        expect(res.body).toEqual({ errors: ['Service temporarily unavailable; retry shortly'] });
        expect(res.headers['retry-after']).toBe('5');
      }
    }
    const after = await Promise.all(requests().map((r) => r.then((res) => res)));
    expect(after.map((r) => r.status)).toEqual(after.map(() => 503));
    for (const res of after) expect(res.headers['retry-after']).toBe('5');
  });
});
