import { decodeJwt } from 'jose';
import { sha256Hex } from '../../src/base/common/crypto/secrets.js';
import { TEN_YEARS_SECONDS } from '../../src/base/config/config.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const pat = (appId: string, qs = '') => `/API/auth/v1/apps/${appId}/token/${qs}`;
const VALIDATE = '/API/auth/v1/auth/token/';

describe('personal access tokens POST /v1/apps/{app_id}/token/', () => {
  let t: TestApp;
  let admin: UserEntity;
  let adminToken: string;
  let actor: UserEntity;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { isAdmin: true });
    adminToken = (await tokenFor(t, admin)).token;
    actor = await createUser(t, { roles: ['can_read_apps'] });
  });
  afterAll(() => t.close());

  it('an administrator issues a PAT → 200 Token with a ten-year default expiry', async () => {
    const app = await createApp(t, { defaultUserId: actor.id });
    const before = Date.now();
    const res = await t.http.post(pat(app.id)).set(bearer(adminToken)).expect(200);
    expect(res.body).toMatchObject({
      token: expect.any(String),
      id: expect.any(String),
      app_id: app.id,
      user_id: actor.id,
      system_domain_id: t.domainId,
      system_domains: [t.domainId],
      system_domain_status: 'ACTIVE',
      is_admin: false,
      is_super_admin: false,
      kind: 'PAT',
    });
    const expires = new Date(res.body.expires).getTime();
    expect(Math.abs(expires - (before + TEN_YEARS_SECONDS * 1000))).toBeLessThan(60_000);
    const claims = decodeJwt(res.body.token);
    expect(claims).toMatchObject({ id: res.body.id, app_id: app.id, user_id: actor.id, sys: t.domainId });
    expect(claims.exp).toBe(Math.floor(expires / 1000));
  });

  it('expires_in shortens the lifetime; larger values are capped at ten years', async () => {
    const app = await createApp(t, { defaultUserId: actor.id });
    const short = await t.http.post(pat(app.id, '?expires_in=3600')).set(bearer(adminToken)).expect(200);
    expect(Math.abs(new Date(short.body.expires).getTime() - (Date.now() + 3600_000))).toBeLessThan(60_000);
    const huge = await t.http
      .post(pat(app.id, `?expires_in=${TEN_YEARS_SECONDS * 3}`))
      .set(bearer(adminToken))
      .expect(200);
    expect(
      Math.abs(new Date(huge.body.expires).getTime() - (Date.now() + TEN_YEARS_SECONDS * 1000)),
    ).toBeLessThan(60_000);
  });

  // only plain decimal integers: no hex, exponent, sign or spaces (Number() would take them all)
  it.each(['0', '-5', 'abc', '1.5', '0x10', '1e3', '%205', '5%20', '+5', '1_000'])(
    'expires_in=%s → 400 naming the field',
    async (v) => {
      const app = await createApp(t, { defaultUserId: actor.id });
      const res = await t.http
        .post(pat(app.id, `?expires_in=${v}`))
        .set(bearer(adminToken))
        .expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['expires_in']);
    },
  );

  it('an app without an acting user → 400', async () => {
    const app = await createApp(t);
    const res = await t.http.post(pat(app.id)).set(bearer(adminToken)).expect(400);
    expect(res.body).toEqual({ errors: { default_user_id: 'the app has no acting user' } });
  });

  it('an inactive acting user → 400', async () => {
    const inactive = await createUser(t, { status: 'INACTIVE' });
    const app = await createApp(t, { defaultUserId: inactive.id });
    const res = await t.http.post(pat(app.id)).set(bearer(adminToken)).expect(400);
    expect(res.body).toEqual({ errors: { default_user_id: 'the acting user is not active' } });
  });

  it('an OAuth app → 400', async () => {
    const app = await createApp(t, { type: 'OAUTH', clientType: 'confidential', defaultUserId: actor.id });
    const res = await t.http.post(pat(app.id)).set(bearer(adminToken)).expect(400);
    expect(res.body.errors).toEqual(expect.any(Array));
  });

  it('a non-administrator with can_read_apps who is not the acting user → 403', async () => {
    const other = await createUser(t, { roles: ['can_read_apps'] });
    const app = await createApp(t, { defaultUserId: actor.id });
    const res = await t.http
      .post(pat(app.id))
      .set(bearer((await tokenFor(t, other)).token))
      .expect(403);
    expect(res.body).toEqual({ errors: ['Only an administrator or the acting user may issue this token'] });
  });

  it('the acting user themself with can_read_apps → 200', async () => {
    const app = await createApp(t, { defaultUserId: actor.id });
    const res = await t.http
      .post(pat(app.id))
      .set(bearer((await tokenFor(t, actor)).token))
      .expect(200);
    expect(res.body.user_id).toBe(actor.id);
  });

  it('the acting user without can_read_apps → 403', async () => {
    const plain = await createUser(t);
    const app = await createApp(t, { defaultUserId: plain.id });
    await t.http
      .post(pat(app.id))
      .set(bearer((await tokenFor(t, plain)).token))
      .expect(403);
  });

  it('another domain’s app or a malformed id → 404', async () => {
    const d = await createDomain(t);
    const u = await createUser(t, { domainId: d.id });
    const app = await createApp(t, { domainId: d.id, defaultUserId: u.id });
    await t.http.post(pat(app.id)).set(bearer(adminToken)).expect(404);
    await t.http.post(pat('nope')).set(bearer(adminToken)).expect(404);
  });

  it('works in both credential forms; a mismatched App-ID → 401', async () => {
    const app = await createApp(t, { defaultUserId: actor.id });
    const { token } = (await t.http.post(pat(app.id)).set(bearer(adminToken)).expect(200)).body;
    const viaBearer = await t.http.get(VALIDATE).set(bearer(token)).expect(200);
    expect(viaBearer.body).toMatchObject({ app_id: app.id, user_id: actor.id, token });
    await t.http.get(VALIDATE).set({ 'App-ID': app.id, 'Auth-Token': token }).expect(200);
    // header names are case-insensitive
    await t.http.get(VALIDATE).set({ 'app-id': app.id, 'auth-token': token }).expect(200);
    const other = await createApp(t);
    const res = await t.http.get(VALIDATE).set({ 'App-ID': other.id, 'Auth-Token': token }).expect(401);
    expect(res.body).toEqual({ errors: ['App-ID does not match the token'] });
    // the PAT carries its user's roles
    await t.http.get('/API/auth/v1/apps/').set(bearer(token)).expect(200);
  });

  it('stores only the SHA-256 of the JWT', async () => {
    const app = await createApp(t, { defaultUserId: actor.id });
    const { token, id } = (await t.http.post(pat(app.id)).set(bearer(adminToken)).expect(200)).body;
    const [row] = await t.ds.query('SELECT * FROM tokens WHERE id = $1', [id]);
    expect(row.token_hash).toBe(sha256Hex(token));
    for (const v of Object.values(row)) expect(JSON.stringify(v) ?? '').not.toContain(token);
    for (const part of token.split('.')) {
      for (const v of Object.values(row)) expect(JSON.stringify(v) ?? '').not.toContain(part);
    }
  });

  it('a second PAT leaves the first valid', async () => {
    const app = await createApp(t, { defaultUserId: actor.id });
    const first = (await t.http.post(pat(app.id)).set(bearer(adminToken)).expect(200)).body.token;
    const second = (await t.http.post(pat(app.id)).set(bearer(adminToken)).expect(200)).body.token;
    expect(second).not.toBe(first);
    await t.http.get(VALIDATE).set(bearer(first)).expect(200);
    await t.http.get(VALIDATE).set(bearer(second)).expect(200);
  });

  it('an acting user who left the domain → 400', async () => {
    const leaver = await createUser(t);
    const app = await createApp(t, { defaultUserId: leaver.id });
    await t.ds.query('DELETE FROM user_system_domains WHERE user_id = $1', [leaver.id]);
    const res = await t.http.post(pat(app.id)).set(bearer(adminToken)).expect(400);
    expect(res.body).toEqual({
      errors: { default_user_id: 'the acting user is not a member of this domain' },
    });
  });
});
