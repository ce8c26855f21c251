import { randomUUID } from 'node:crypto';
import { Clock } from '../../src/base/common/clock.js';
import { createApp, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

/** Every expiry decision reads the one Clock, so moving it moves them all (tokens, approvals, links, codes). */
describe('one clock for every expiry', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => t.get(Clock).reset());

  it('a PAT issued for 60 seconds stops working when the clock passes its expiry', async () => {
    const admin = await createUser(t, { isAdmin: true });
    const app = await createApp(t, { defaultUserId: admin.id });
    const h = bearer((await tokenFor(t, admin)).token);
    const pat = (await t.http.post(`/API/auth/v1/apps/${app.id}/token/?expires_in=60`).set(h).expect(200))
      .body.token as string;
    await t.http.get('/API/auth/v1/auth/token/').set(bearer(pat)).expect(200);
    t.get(Clock).advance(61_000);
    const res = await t.http.get('/API/auth/v1/auth/token/').set(bearer(pat)).expect(401);
    expect(res.body).toEqual({ errors: ['Token has expired'] });
  });

  it('a sign-in token and an external-auth approval expire on the clock too', async () => {
    const user = await createUser(t);
    const login = (await tokenFor(t, user)).token;
    const app = await createApp(t);
    const secret = randomUUID();
    await t.http
      .post('/API/auth/v1/apps/external/auth/')
      .set(bearer(login))
      .send({ secret, app_id: app.id })
      .expect(201);
    t.get(Clock).advance(11 * 60_000);
    await t.http.get(`/API/auth/v1/apps/external/auth/${secret}/`).expect(404);
    t.get(Clock).advance(12 * 3600_000);
    await t.http.get('/API/auth/v1/auth/token/').set(bearer(login)).expect(401);
  });
});
