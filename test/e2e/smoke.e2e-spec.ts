import { ADMIN_EMAIL, ADMIN_PASSWORD, createTestApp, type TestApp } from '../utils/create-test-app.js';
import { bearer, login } from '../utils/auth.js';

describe('newcomer flow (smoke)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('signs in, creates a service account, issues a PAT, uses both forms, revokes it', async () => {
    const admin = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const app = await t.http
      .post('/API/auth/v1/apps/')
      .set(bearer(admin))
      .send({ name: 'svc', type: 'PAT', default_user_id: t.admin.id })
      .expect(201);
    const pat = await t.http.post(`/API/auth/v1/apps/${app.body.id}/token/`).set(bearer(admin)).expect(200);
    expect(pat.body.token).toEqual(expect.any(String));
    await t.http.get('/API/auth/v1/auth/token/').set(bearer(pat.body.token)).expect(200);
    await t.http
      .get('/API/auth/v1/auth/token/')
      .set({ 'App-ID': app.body.id, 'Auth-Token': pat.body.token })
      .expect(200);
    await t.http.delete('/API/auth/v1/auth/token/').set(bearer(pat.body.token)).expect(200);
    const after = await t.http.get('/API/auth/v1/auth/token/').set(bearer(pat.body.token)).expect(401);
    expect(after.body).toEqual({ errors: ['Token has been revoked'] });
  });
});
