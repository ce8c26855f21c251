import { AppEntity } from '../../src/base/model/app.entity.js';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const APPS = '/API/auth/v1/apps';
const USERS = '/API/users/v1/users/';

/**
 * /v1/apps/{app_id}/current_user_token/: the signed-in person takes a token of another app of their domain
 * for themself. It carries no more than they hold, and no more than the app's ceiling.
 */
describe('current user token of an app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const mint = (appId: string, h: Record<string, string>) =>
    t.http.post(`${APPS}/${appId}/current_user_token/`).set(h);

  it('gives the caller a token of the app acting as themself, within their rights, not past their sign-in', async () => {
    const user = await createUser(t, { roles: ['can_read_users'] });
    const app = await createApp(t);
    const login = await tokenFor(t, user, { expiresInSeconds: 600 });
    const res = await mint(app.id, bearer(login.token)).expect(200);
    expect(res.body).toMatchObject({ user_id: user.id, app_id: app.id, system_domain_id: t.domainId });
    expect(new Date(res.body.expires).getTime()).toBeLessThanOrEqual(Date.now() + 600_000 + 1000);
    const h = bearer(res.body.token);
    await t.http.get(USERS).set(h).expect(200);
    // the legacy pair names the app the token belongs to
    await t.http.get(USERS).set({ 'App-ID': app.id, 'Auth-Token': res.body.token }).expect(200);
    await t.http.post(USERS).set(h).send({ email: 'x-cut@example.com' }).expect(403);
    // it is not the person's own sign-in: no account changes through it
    await t.http.patch(`${USERS}current/`).set(h).send({ password: 'another-long-pass-1' }).expect(403);
  });

  it('is cut to the app’s ceiling, even for an administrator', async () => {
    const admin = await createUser(t, { isAdmin: true });
    const app = await createApp(t, { actingCap: ['can_read_assets'] });
    const res = await mint(app.id, bearer((await tokenFor(t, admin)).token)).expect(200);
    const h = bearer(res.body.token);
    const refused = await t.http.get(USERS).set(h).expect(403);
    expect(JSON.stringify(refused.body)).toContain('can_read_users');
  });

  it('only from a sign-in token, for an app of the caller’s own domain', async () => {
    const user = await createUser(t, { roles: ['can_read_users'] });
    const app = await createApp(t);
    // a PAT (or a token minted here) cannot mint further tokens: no laundering of a ceiling or a lifetime
    const pat = await tokenFor(t, user, { kind: 'PAT', appId: app.id });
    await mint(app.id, bearer(pat.token)).expect(401);
    const minted = await mint(app.id, bearer((await tokenFor(t, user)).token)).expect(200);
    await mint(app.id, bearer(minted.body.token)).expect(401);
    await t.http.post(`${APPS}/${app.id}/current_user_token/`).expect(401);
    // another domain's app, the built-in app, a made-up id: alike
    const other = await createDomain(t);
    const foreign = await createApp(t, { domainId: other.id });
    const h = bearer((await tokenFor(t, user)).token);
    await mint(foreign.id, h).expect(404);
    const builtin = await t.ds
      .getRepository(AppEntity)
      .findOneByOrFail({ system_domain_id: t.domainId, is_builtin: true });
    await mint(builtin.id, h).expect(404);
    await mint('00000000-0000-4000-8000-000000000000', h).expect(404);
  });
});
