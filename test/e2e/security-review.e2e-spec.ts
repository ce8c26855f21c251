import { randomUUID } from 'node:crypto';
import { TokenIssuer } from '../../src/credentials/mint/token-issuer.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  authorizationRequest,
  createOAuthApp,
  domainAdminToken,
  exchangeCode,
  hiddenField,
  OAUTH,
  obtainTokens,
  pkce,
} from '../utils/oauth.js';

const APPS = '/API/auth/v1/apps';
const TOKEN = '/API/auth/v1/oauth/token/';
const ME = '/API/users/v1/users/current';

/**
 * Regressions of the adversarial review (issue 17, findings 1–3), each reproduced end to end as it was
 * reported: credentials are checked where they are made, a session approves only in its own domain, and an
 * account's factors are changed only by its person.
 */
describe('security review: credentials, sessions, account factors', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const clientCredentials = (id: string, secret: string) =>
    t.http
      .post(TOKEN)
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: id, client_secret: secret });

  describe('1. a domain administrator cannot obtain a super administrator’s credentials through an app', () => {
    let root: UserEntity;
    let rootToken: string;
    let adminToken: string;
    let app: { id: string; client_secret: string };

    beforeAll(async () => {
      root = await createUser(t, { isSuperAdmin: true, isAdmin: true });
      rootToken = (await tokenFor(t, root)).token;
      adminToken = (await tokenFor(t, await createUser(t, { isAdmin: true }))).token;
      const res = await t.http
        .post(`${APPS}/`)
        .set(bearer(rootToken))
        .send({
          name: 'Nightly export',
          type: 'OAUTH',
          oauth_client_type: 'confidential',
          default_user_id: root.id,
          redirect_uris: ['https://export.example/cb'],
        })
        .expect(201);
      app = res.body;
    });

    it('the client type flipped to public and back makes no secret for them (403), and no super token', async () => {
      const h = bearer(adminToken);
      // the app acts as someone who outranks them: not theirs to change at all (security-low.e2e-spec.ts)
      await t.http.patch(`${APPS}/${app.id}/`).set(h).send({ oauth_client_type: 'public' }).expect(403);
      // the super administrator flips it; the way back is still no secret for the domain administrator
      await t.http
        .patch(`${APPS}/${app.id}/`)
        .set(bearer(rootToken))
        .send({ oauth_client_type: 'public' })
        .expect(200);
      const back = await t.http
        .patch(`${APPS}/${app.id}/`)
        .set(h)
        .send({ oauth_client_type: 'confidential' })
        .expect(403);
      expect(back.body.errors[0]).toMatch(/rights you do not hold \(super/);
      expect(back.body.client_secret).toBeUndefined();
      // nothing was saved: the app is still public, and no secret of it works
      const seen = await t.http.get(`${APPS}/${app.id}/`).set(bearer(rootToken)).expect(200);
      expect(seen.body.oauth_client_type).toBe('public');
      expect((await clientCredentials(app.id, app.client_secret)).status).toBe(401);
    });

    it('a secret rotation is theirs only if they hold the app’s ceiling; the old secret stops at once', async () => {
      await t.http
        .patch(`${APPS}/${app.id}/`)
        .set(bearer(rootToken))
        .send({ oauth_client_type: 'confidential' });
      const first = await t.http.post(`${APPS}/${app.id}/secret/`).set(bearer(rootToken)).expect(201);
      await t.http.post(`${APPS}/${app.id}/secret/`).set(bearer(adminToken)).expect(403);
      const rotated = await t.http.post(`${APPS}/${app.id}/secret/`).set(bearer(rootToken)).expect(201);
      expect(rotated.body.client_secret).not.toBe(first.body.client_secret);
      expect((await clientCredentials(app.id, first.body.client_secret)).status).toBe(401);
      const granted = await clientCredentials(app.id, rotated.body.client_secret).expect(200);
      const me = await t.http
        .get('/API/auth/v1/auth/token/')
        .set(bearer(granted.body.access_token))
        .expect(200);
      expect(me.body.is_super_admin).toBe(true);
    });

    it('an administrator rotates the secret of an app within their rights; a public client has none (400)', async () => {
      const own = await createOAuthApp(t, { kind: 'backend', scopes: [] });
      const rotated = await t.http.post(`${APPS}/${own.id}/secret/`).set(bearer(adminToken)).expect(201);
      await clientCredentials(own.id, rotated.body.client_secret).expect(200);
      expect((await clientCredentials(own.id, own.secret as string)).status).toBe(401);
      const browser = await createOAuthApp(t, { kind: 'browser' });
      await t.http.post(`${APPS}/${browser.id}/secret/`).set(bearer(adminToken)).expect(400);
      const user = (await tokenFor(t, await createUser(t, { roles: ['can_write_apps', 'can_read_apps'] })))
        .token;
      await t.http.post(`${APPS}/${own.id}/secret/`).set(bearer(user)).expect(403);
    });
  });

  describe('2. an approval in domain B needs a session of B that satisfied B’s policy', () => {
    let user: UserEntity;
    let domainB: string;
    let appB: Awaited<ReturnType<typeof createOAuthApp>>;

    beforeAll(async () => {
      domainB = (await createDomain(t)).id;
      user = await createUser(t, { alsoIn: [domainB] });
      await t.http
        .patch('/API/auth/v1/system_domains/current/mfa/')
        .set(bearer(await domainAdminToken(t, domainB)))
        .send({ mfa_required: true, mfa_methods: ['MAIL_2SV'] })
        .expect(200);
      appB = await createOAuthApp(t, { kind: 'browser', domainId: domainB, scopes: ['assets:read'] });
    });

    it('the API refuses A’s login token for B’s app: no code, no B token without a second factor', async () => {
      const login = await t.http
        .post('/API/auth/v1/auth/simple/login/')
        .send({ email: user.email, password: DEFAULT_PASSWORD })
        .expect(201);
      expect(login.body.system_domain_id).toBe(t.domainId);
      const p = pkce();
      const params = authorizationRequest(appB, p, { scope: 'assets:read' });
      for (const call of [
        t.http.post(OAUTH.authorizeApi).send({ ...params, decision: 'allow' }),
        t.http.get(OAUTH.authorizeApi).query(params),
      ]) {
        const res = await call.set(bearer(login.body.token));
        expect(res.status).toBe(403);
        expect(res.body.errors[0]).toMatch(/sign in to that domain/);
      }
      const [{ n }] = await t.ds.query(
        'SELECT count(*)::int AS n FROM oauth_authorization_codes WHERE app_id = $1',
        [appB.id],
      );
      expect(n).toBe(0);
    });

    it('the consent page takes A’s session for B’s app as "not signed in": the sign-in form, not Allow', async () => {
      const login = await t.http
        .post('/API/auth/v1/auth/simple/login/')
        .send({ email: user.email, password: DEFAULT_PASSWORD })
        .expect(201);
      const query = new URLSearchParams(authorizationRequest(appB, pkce())).toString();
      const page = await t.http
        .get(`${OAUTH.consent}?${query}`)
        .set('Cookie', `portcullis_session=${login.body.token}`)
        .expect(200);
      expect(page.text).toContain('name="password"');
      expect(page.text).not.toContain('value="allow"');
      // and a decision posted with that session issues nothing
      const csrf = hiddenField(page.text, 'csrf') as string;
      const cookies = (page.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]);
      const decision = await t.http
        .post(OAUTH.consent)
        .set('Cookie', [`portcullis_session=${login.body.token}`, ...cookies].join('; '))
        .type('form')
        .send({ ...authorizationRequest(appB, pkce()), csrf, decision: 'allow' });
      expect(decision.status).toBe(401);
    });

    it('a session of B from before B required a factor must sign in again; one that passed it approves', async () => {
      const stale = (await tokenFor(t, user, { domainId: domainB })).token;
      const params = { ...authorizationRequest(appB, pkce(), { scope: 'assets:read' }), decision: 'allow' };
      const refused = await t.http.post(OAUTH.authorizeApi).set(bearer(stale)).send(params).expect(403);
      expect(refused.body.errors[0]).toMatch(/requires a second factor/);
      const passed = await t.get(TokenIssuer).issue({
        userId: user.id,
        appId: (
          await t.ds.query('SELECT id FROM apps WHERE system_domain_id = $1 AND is_builtin', [domainB])
        )[0].id,
        systemDomainId: domainB,
        kind: 'LOGIN',
        mfa: true,
        expires: new Date(Date.now() + 3600_000),
      });
      const p = pkce();
      const ok = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(passed.token))
        .send({ ...authorizationRequest(appB, p, { scope: 'assets:read' }), decision: 'allow' })
        .expect(200);
      const code = new URL(ok.body.redirect_to).searchParams.get('code') as string;
      const tokens = await exchangeCode(t, appB, code, p.verifier).expect(200);
      const me = await t.http
        .get('/API/auth/v1/auth/token/')
        .set(bearer(tokens.body.access_token))
        .expect(200);
      expect(me.body.is_mfa_authenticated).toBe(true);
    });
  });

  it('a redirect URI is stored in its standard form and still matches as the client wrote it; a fragment never', async () => {
    const app = await createOAuthApp(t, { kind: 'browser', redirectUris: ['HTTPS://Photos.Example/cb'] });
    expect(app.redirectUris).toEqual(['https://photos.example/cb']);
    const user = await createUser(t);
    const login = (await tokenFor(t, user)).token;
    for (const [uri, status] of [
      ['HTTPS://Photos.Example/cb', 200],
      ['https://photos.example/cb', 200],
      ['https://photos.example/cb#', 400],
      ['https:photos.example/cb', 400],
      ['https://photos.example/cb/', 400],
    ] as const) {
      const res = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(login))
        .send({ ...authorizationRequest(app, pkce(), { redirect_uri: uri }), decision: 'allow' });
      expect({ uri, status: res.status }).toEqual({ uri, status });
    }
  });

  describe('3. second factors, email and password are changed by their person only', () => {
    it('PAT, client-credentials and OAuth tokens acting as V cannot enrol, confirm or remove a factor', async () => {
      // may change their own account (can_write_users), so only the credential decides
      const v = await createUser(t, { roles: ['can_write_users'] });
      const admin = await domainAdminToken(t);
      const patApp = await t.http
        .post(`${APPS}/`)
        .set(bearer(admin))
        .send({ name: `pat-${randomUUID().slice(0, 6)}`, type: 'PAT', default_user_id: v.id })
        .expect(201);
      const pat = (await t.http.post(`${APPS}/${patApp.body.id}/token/`).set(bearer(admin)).expect(200)).body
        .token as string;
      const backend = await createOAuthApp(t, {
        kind: 'backend',
        defaultUserId: v.id,
        scopes: ['user_impersonation'],
      });
      const cc = (await clientCredentials(backend.id, backend.secret as string).expect(200)).body
        .access_token as string;
      const browser = await createOAuthApp(t, { kind: 'browser', scopes: ['user_impersonation'] });
      const consented = (await obtainTokens(t, browser, v, { scope: 'user_impersonation' })).access_token;
      for (const token of [pat, cc, consented]) {
        const h = bearer(token);
        for (const res of [
          await t.http.post(`${ME}/totp/configure/`).set(h),
          await t.http.post(`${ME}/totp/validate_configuration/`).set(h).send({ otp: '123456' }),
          await t.http.delete(`${ME}/totp/configure/`).set(h).send({ otp: '123456' }),
          await t.http.post(`${ME}/otp/configure/`).set(h).send({ otp: '123456' }),
          await t.http.put(`${ME}/otp/configure/`).set(h).send({ enabled: false, otp: '123456' }),
          await t.http.patch(`${ME}/`).set(h).send({ password: 'a-New-passw0rd-42' }),
          await t.http
            .patch(`${ME}/`)
            .set(h)
            .send({ email: `moved-${randomUUID().slice(0, 6)}@example.com` }),
        ]) {
          expect({ status: res.status, body: res.body }).toEqual({
            status: 403,
            body: { errors: [expect.stringMatching(/or their second factors: sign in as yourself/)] },
          });
        }
      }
      const [{ n }] = await t.ds.query('SELECT count(*)::int AS n FROM user_mfa WHERE user_id = $1', [v.id]);
      expect(n).toBe(0);
    });

    it('the person’s own sign-in: recent, or with a second factor; a stale one signs in again', async () => {
      // may change their own account (can_write_users), so only the credential decides
      const v = await createUser(t, { roles: ['can_write_users'] });
      const builtin = (
        await t.ds.query('SELECT id FROM apps WHERE system_domain_id = $1 AND is_builtin', [t.domainId])
      )[0].id as string;
      const mint = (authTime: Date | null, mfa = false) =>
        t.get(TokenIssuer).issue({
          userId: v.id,
          appId: builtin,
          systemDomainId: t.domainId,
          kind: 'LOGIN',
          mfa,
          authTime,
          expires: new Date(Date.now() + 3600_000),
        });
      const stale = (await mint(new Date(Date.now() - 16 * 60_000))).token;
      for (const res of [
        await t.http.post(`${ME}/totp/configure/`).set(bearer(stale)),
        await t.http.patch(`${ME}/`).set(bearer(stale)).send({ password: 'a-New-passw0rd-42' }),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.errors[0]).toMatch(/needs a recent sign-in/);
      }
      // renaming oneself is not an account factor: any sign-in may
      await t.http.patch(`${ME}/`).set(bearer(stale)).send({ first_name: 'Renamed' }).expect(200);
      const withFactor = (await mint(new Date(Date.now() - 3 * 3600_000), true)).token;
      await t.http.post(`${ME}/totp/configure/`).set(bearer(withFactor)).expect(201);
      // a fresh password sign-in through the real endpoint may
      const login = await t.http
        .post('/API/auth/v1/auth/simple/login/')
        .send({ email: v.email, password: DEFAULT_PASSWORD })
        .expect(201);
      await t.http.post(`${ME}/totp/configure/`).set(bearer(login.body.token)).expect(201);
      // renewing a token keeps its sign-in time: a renewal is no way to refresh it
      const renewed = await t.http.post('/API/auth/v1/auth/token/').set(bearer(stale)).expect(201);
      await t.http.post(`${ME}/totp/configure/`).set(bearer(renewed.body.token)).expect(403);
    });
  });
});
