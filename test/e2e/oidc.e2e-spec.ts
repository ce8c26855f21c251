import { createHash } from 'node:crypto';
import { withoutOwnScripts } from '../utils/page-scripts.js';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  type JSONWebKeySet,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { Response } from 'supertest';
import { Clock } from '../../src/base/common/clock.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { SoftAuthenticator } from '../utils/soft-authenticator.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  authorizationRequest,
  clientForm,
  CookieJar,
  createOAuthApp,
  createPatApp,
  domainAdminToken,
  exchangeCode,
  expectConsentHeaders,
  hiddenField,
  OAUTH,
  type OAuthApp,
  type Pkce,
  pkce,
  refreshGrant,
  SESSION_COOKIE,
  setCookie,
  tokenRequest,
} from '../utils/oauth.js';
import { authnRequestOf } from '../utils/saml-idp.js';
import { samlWorld, type SamlWorld } from '../utils/saml-setup.js';

const ISSUER = 'http://localhost:3000';
const DISCOVERY = '/.well-known/openid-configuration';
const USERINFO = '/API/auth/v1/oauth/userinfo/';
const LOGOUT = '/oauth/logout';
const MFA = '/oauth/authorize/mfa';
const PASSKEYS = '/API/users/v1/users/current/webauthn/';
const ASSETS = '/API/assets/v1/assets/';
const ACCESS_TTL = 12 * 3600;
const ACR = {
  password: 'urn:portcullis:acr:password',
  mfa: 'urn:portcullis:acr:mfa',
  federated: 'urn:portcullis:acr:federated',
};
const REALM = 'Bearer realm="portcullis"';
const RP = 'https://rp.example';
const BYE = `${RP}/bye`;

/**
 * The OpenID Connect provider layer over HTTP (issue 40): discovery, the id_token of the code and refresh
 * grants (verified with jose against the service's JWKS), userinfo with RFC 6750's challenges, the consent
 * page's OpenID parameters (prompt, max_age, login_hint, nonce, remembered consent) and RP-initiated logout.
 * A real browser and a certified RP library drive the same flows in the Chromium + openid-client suite.
 */
describe('OpenID Connect provider', () => {
  let t: TestApp;
  let clock: Clock;
  let app: OAuthApp;
  let other: OAuthApp;
  let user: UserEntity;

  beforeAll(async () => {
    t = await createTestApp();
    clock = t.get(Clock);
    app = await createOAuthApp(t, {
      kind: 'browser',
      name: 'Relying Party',
      scopes: ['openid', 'profile', 'email', 'assets:read'],
      redirectUris: [`${RP}/cb`],
    });
    other = await createOAuthApp(t, {
      kind: 'server',
      name: 'Other RP',
      scopes: ['openid', 'email'],
      redirectUris: ['https://other-rp.example/cb'],
    });
    const admin = bearer(await domainAdminToken(t));
    for (const a of [app, other]) {
      await t.http
        .patch(`/API/auth/v1/apps/${a.id}/`)
        .set(admin)
        .send({ post_logout_redirect_uris: [a === app ? BYE : 'https://other-rp.example/bye'] })
        .expect(200);
    }
    user = await createUser(t, { roles: ['can_read_assets'] });
  });
  afterAll(() => t.close());

  // ------------------------------------------------------------------------------------------- helpers

  const open = (params: Record<string, string>, jar = new CookieJar()) =>
    t.http.get(OAUTH.consent).query(params).set(jar.header());

  /** A request for `app` with OpenID parameters (`undefined` drops a field). */
  const request = (
    p: Pkce,
    over: Record<string, string | undefined> = {},
    client: OAuthApp = app,
  ): Record<string, string> => {
    const base = authorizationRequest(client, p, { scope: 'openid' });
    const all: Record<string, string | undefined> = { ...base, ...over };
    return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
  };

  /**
   * The password form on the page the jar's browser is on: answers the 303 back to the request (or, with
   * `status` 200, the second-factor step of an account that owes one).
   */
  async function passwordSignIn(
    params: Record<string, string>,
    jar: CookieJar,
    email = user.email,
    status = 303,
  ) {
    const page = await open(params, jar).expect(200);
    jar.store(page);
    expect(page.text).toContain('name="password"');
    const res = await t.http
      .post(OAUTH.consentLogin)
      .set(jar.header())
      .type('form')
      .send({ ...params, csrf: hiddenField(page.text, 'csrf') as string, email, password: DEFAULT_PASSWORD })
      .expect(status);
    jar.store(res);
    return res;
  }

  /** Signs in on the page (a fresh browser unless given one): the jar holding the session. */
  async function signIn(params: Record<string, string>, email = user.email, jar = new CookieJar()) {
    await passwordSignIn(params, jar, email);
    return jar;
  }

  /** Opens the consent screen (it must be shown) and submits `decision`. */
  async function decide(params: Record<string, string>, jar: CookieJar, decision = 'allow') {
    const page = await open(params, jar).expect(200);
    jar.store(page);
    expect(page.text).toContain('value="allow"');
    return t.http
      .post(OAUTH.consent)
      .set(jar.header())
      .type('form')
      .send({ ...params, csrf: hiddenField(page.text, 'csrf') as string, decision })
      .expect(303);
  }

  const codeOf = (res: Response) => new URL(res.headers.location as string).searchParams.get('code');

  /**
   * Signs in (unless the jar has a session), allows (or finds the consent remembered), exchanges: the token
   * response body and the jar.
   */
  async function authorize(
    o: { over?: Record<string, string | undefined>; jar?: CookieJar; email?: string; client?: OAuthApp } = {},
  ) {
    const p = pkce();
    const client = o.client ?? app;
    const params = request(p, o.over, client);
    const jar = o.jar ?? (await signIn(params, o.email));
    // a remembered consent answers the page with the code at once; otherwise the screen, and Allow
    const page = await open(params, jar);
    const res = page.status === 303 ? page : await decide(params, jar);
    const code = codeOf(res);
    expect(code).toBeTruthy();
    const tokens = await exchangeCode(t, client, code as string, p.verifier).expect(200);
    return { body: tokens.body as Record<string, string>, jar, params };
  }

  async function jwks(target: TestApp = t): Promise<JSONWebKeySet> {
    return (await target.http.get(OAUTH.jwks).expect(200)).body as JSONWebKeySet;
  }

  /** Verifies an id_token as an RP would: ES256, a key of the JWKS, our issuer, `aud` the client. */
  async function verifyIdToken(idToken: string, aud = app.id): Promise<JWTPayload> {
    const header = decodeProtectedHeader(idToken);
    expect(header.alg).toBe('ES256');
    const keys = await jwks();
    expect(keys.keys.map((k) => k.kid)).toContain(header.kid);
    const { payload } = await jwtVerify(idToken, createLocalJWKSet(keys), {
      issuer: ISSUER,
      audience: aud,
      algorithms: ['ES256'],
    });
    return payload;
  }

  const atHash = (accessToken: string) =>
    createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');

  /** The "does this credential still work" probe. */
  const works = async (token: string) => (await t.http.get(OAUTH.validate).set(bearer(token))).status === 200;
  /** An access token of OpenID Connect's scopes alone reaches userinfo only (not the self-service routes). */
  const reachesUserinfo = async (token: string) =>
    (await t.http.get(USERINFO).set(bearer(token))).status === 200;

  // ------------------------------------------------------------------------------------------- 1. discovery

  describe('discovery /.well-known/openid-configuration', () => {
    it('names every endpoint and capability an RP needs', async () => {
      const res = await t.http.get(DISCOVERY).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const d = res.body;
      expect(d).toMatchObject({
        issuer: ISSUER,
        authorization_endpoint: `${ISSUER}/oauth/authorize`,
        token_endpoint: `${ISSUER}/API/auth/v1/oauth/token/`,
        userinfo_endpoint: `${ISSUER}/API/auth/v1/oauth/userinfo/`,
        jwks_uri: `${ISSUER}/API/auth/v1/oauth/jwks/`,
        end_session_endpoint: `${ISSUER}/oauth/logout`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      });
      expect(d.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile', 'email']));
      expect(d.claims_supported).toEqual(
        expect.arrayContaining([
          'sub',
          'iss',
          'aud',
          'exp',
          'iat',
          'auth_time',
          'nonce',
          'acr',
          'amr',
          'sid',
          'email',
          'email_verified',
          'name',
          'given_name',
          'family_name',
        ]),
      );
      expect(d.acr_values_supported).toEqual(expect.arrayContaining(Object.values(ACR)));
      expect(d.prompt_values_supported).toEqual(expect.arrayContaining(['none', 'login', 'consent']));
      expect(d.grant_types_supported).toEqual(
        expect.arrayContaining(['authorization_code', 'refresh_token']),
      );
      // no implicit or hybrid flow, no alg the service does not sign with
      expect(d.response_types_supported).not.toContain('id_token');
      expect(d.id_token_signing_alg_values_supported).not.toContain('none');
    });

    it('every field it shares with RFC 8414’s document is equal', async () => {
      const oidc = (await t.http.get(DISCOVERY).expect(200)).body as Record<string, unknown>;
      const oauth = (await t.http.get(OAUTH.metadata).expect(200)).body as Record<string, unknown>;
      expect(Object.keys(oauth).length).toBeGreaterThan(10);
      for (const [k, v] of Object.entries(oauth)) expect({ k, v: oidc[k] }).toEqual({ k, v });
    });

    it('every endpoint it names answers at that path', async () => {
      const d = (await t.http.get(DISCOVERY).expect(200)).body as Record<string, string>;
      const path = (k: string) => new URL(d[k]).pathname;
      await t.http.get(path('jwks_uri')).expect(200);
      await t.http.get(path('userinfo_endpoint')).expect(401);
      await t.http.get(path('end_session_endpoint')).expect(200);
      await t.http.get(path('authorization_endpoint')).expect(400);
    });

    it('without a path in PUBLIC_BASE_URL, no prefixed form answers', async () => {
      for (const p of ['/auth', '/x/y', '/API']) await t.http.get(`${p}${DISCOVERY}`).expect(404);
      await t.http.get(`${OAUTH.metadata}/auth`).expect(404);
    });
  });

  // ------------------------------------------------------------------------------------------- 2. id_token

  describe('the id_token of the code exchange', () => {
    it('password sign-in, scope openid, with a nonce: every claim, verified with jose', async () => {
      const before = Math.floor(Date.now() / 1000);
      const { body } = await authorize({ over: { nonce: 'n-0S6_WzA2Mj' } });
      const after = Math.ceil(Date.now() / 1000);
      expect(body.scope).toBe('openid');
      expect(body.id_token).toEqual(expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/));
      const c = await verifyIdToken(body.id_token);
      expect(Object.keys(c).sort()).toEqual(
        [
          'acr',
          'amr',
          'at_hash',
          'aud',
          'auth_time',
          'azp',
          'exp',
          'iat',
          'iss',
          'nonce',
          'sid',
          'sub',
        ].sort(),
      );
      expect(c).toMatchObject({
        iss: ISSUER,
        sub: user.id,
        aud: app.id,
        azp: app.id,
        nonce: 'n-0S6_WzA2Mj',
        acr: ACR.password,
        amr: ['pwd'],
        at_hash: atHash(body.access_token),
      });
      expect(c.sid).toEqual(expect.stringMatching(/^[\w-]{16,}$/));
      expect(c.iat).toBeGreaterThanOrEqual(before);
      expect(c.iat).toBeLessThanOrEqual(after);
      expect(c.exp! - c.iat!).toBe(ACCESS_TTL);
      expect(c.auth_time).toBeGreaterThanOrEqual(before - 1);
      expect(c.auth_time).toBeLessThanOrEqual(c.iat!);
    });

    it('no nonce in the request → none in the id_token', async () => {
      const { body } = await authorize();
      const c = await verifyIdToken(body.id_token);
      expect('nonce' in c).toBe(false);
    });

    it('the nonce is echoed exactly, odd characters and 512 of them included', async () => {
      for (const nonce of ['ñ +/=&"<>\'%20;', 'x'.repeat(512)]) {
        const { body } = await authorize({ over: { nonce } });
        expect((await verifyIdToken(body.id_token)).nonce).toBe(nonce);
      }
    });

    it('email and email_verified only with scope email; the names only with profile', async () => {
      const withEmail = await verifyIdToken(
        (await authorize({ over: { scope: 'openid email' } })).body.id_token,
      );
      expect(withEmail).toMatchObject({ email: user.email, email_verified: false });
      for (const k of ['name', 'given_name', 'family_name']) expect(k in withEmail).toBe(false);

      const withProfile = await verifyIdToken(
        (await authorize({ over: { scope: 'openid profile' } })).body.id_token,
      );
      expect(withProfile).toMatchObject({ name: 'Test User', given_name: 'Test', family_name: 'User' });
      for (const k of ['email', 'email_verified']) expect(k in withProfile).toBe(false);

      const bare = await verifyIdToken((await authorize()).body.id_token);
      for (const k of ['email', 'email_verified', 'name', 'given_name', 'family_name'])
        expect(k in bare).toBe(false);
    });

    it('email_verified follows the account (a mailed secret was used at the address)', async () => {
      const verified = await createUser(t);
      await t.ds.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [verified.id]);
      const { body } = await authorize({ over: { scope: 'openid email' }, email: verified.email });
      expect(await verifyIdToken(body.id_token)).toMatchObject({
        sub: verified.id,
        email: verified.email,
        email_verified: true,
      });
    });

    it('the id_token names the client it was issued to: another audience fails verification', async () => {
      const { body } = await authorize();
      await expect(verifyIdToken(body.id_token, other.id)).rejects.toThrow(/aud/);
    });

    it('a plain OAuth request (no openid) gets no id_token, and the consent screen every time', async () => {
      const plainUser = await createUser(t, { roles: ['can_read_assets'] });
      const p = pkce();
      const params = request(p, { scope: 'assets:read' });
      const jar = await signIn(params, plainUser.email);
      for (let i = 0; i < 2; i++) {
        const q = pkce();
        const res = await decide(request(q, { scope: 'assets:read' }), jar);
        const tokens = await exchangeCode(t, app, codeOf(res) as string, q.verifier).expect(200);
        expect(Object.keys(tokens.body).sort()).toEqual(
          ['access_token', 'expires_in', 'refresh_token', 'scope', 'token', 'token_type'].sort(),
        );
      }
      // the third time too: the screen, not a code
      const again = await open(request(pkce(), { scope: 'assets:read' }), jar).expect(200);
      expect(again.text).toContain('value="allow"');
      expect(await t.ds.query('SELECT 1 FROM oauth_consents WHERE user_id = $1', [plainUser.id])).toEqual([]);
    });

    it('openid, profile and email grant no API role: such a token is 403 on an assets route', async () => {
      const { body } = await authorize({ over: { scope: 'openid profile email' } });
      await t.http.get(ASSETS).set(bearer(body.access_token)).expect(403);
      // while the same person's assets:read token reads them
      const { body: reading } = await authorize({ over: { scope: 'openid assets:read' } });
      await t.http.get(ASSETS).set(bearer(reading.access_token)).expect(200);
    });

    it('a token of openid, profile and email alone reaches userinfo only: not who-am-I, not the token self-service', async () => {
      // the email and profile claims are the person's decision (scopes); users/current/ would tell them regardless
      const { body } = await authorize({ over: { scope: 'openid' } });
      const only = bearer(body.access_token);
      const me = await t.http.get('/API/users/v1/users/current/').set(only).expect(403);
      expect(JSON.stringify(me.body)).not.toContain(user.email);
      await t.http.get(OAUTH.validate).set(only).expect(403);
      await t.http.get(USERINFO).set(only).expect(200);
      // beside an API scope, who-am-I answers as it always did
      const { body: wider } = await authorize({ over: { scope: 'openid assets:read' } });
      await t.http.get('/API/users/v1/users/current/').set(bearer(wider.access_token)).expect(200);
    });

    it('the id_token is no Bearer credential (API, userinfo, token validation)', async () => {
      const { body } = await authorize({ over: { scope: 'openid email assets:read' } });
      const idToken = bearer(body.id_token);
      await t.http.get(OAUTH.validate).set(idToken).expect(401);
      await t.http.get(ASSETS).set(idToken).expect(401);
      await t.http.get(USERINFO).set(idToken).expect(401);
      await t.http.get('/API/users/v1/users/current/').set(idToken).expect(401);
    });

    describe('acr and amr follow the sign-in', () => {
      let mfaUser: UserEntity;
      let secret: string;
      const totp = () =>
        new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });

      beforeAll(async () => {
        mfaUser = await createUser(t);
        const login = bearer((await tokenFor(t, mfaUser)).token);
        secret = (await t.http.post('/API/users/v1/users/current/totp/configure/').set(login).expect(201))
          .body.secret;
        await t.http
          .post('/API/users/v1/users/current/totp/validate_configuration/')
          .set(login)
          .send({ otp: totp() })
          .expect(200);
        clock.advance(30_000); // the next code is a new one (a used code is refused)
      });

      it('password and an authenticator-app code → acr mfa, amr pwd otp mfa (through refresh too)', async () => {
        const p = pkce();
        const params = request(p, { nonce: 'mfa-nonce' });
        const jar = new CookieJar();
        const second = await passwordSignIn(params, jar, mfaUser.email, 200);
        expect(second.text).toContain('Confirm it is you');
        const ok = await t.http
          .post(MFA)
          .set(jar.header())
          .type('form')
          .send({
            ...params,
            csrf: hiddenField(second.text, 'csrf') as string,
            otp: totp(),
            otp_type: 'TOTP',
            action: 'verify',
          })
          .expect(303);
        jar.store(ok);
        const res = await decide(params, jar);
        const tokens = await exchangeCode(t, app, codeOf(res) as string, p.verifier).expect(200);
        const c = await verifyIdToken(tokens.body.id_token);
        expect(c).toMatchObject({
          sub: mfaUser.id,
          acr: ACR.mfa,
          amr: ['pwd', 'otp', 'mfa'],
          nonce: 'mfa-nonce',
        });
        const refreshed = await refreshGrant(t, app, tokens.body.refresh_token).expect(200);
        expect(await verifyIdToken(refreshed.body.id_token)).toMatchObject({
          acr: ACR.mfa,
          amr: ['pwd', 'otp', 'mfa'],
        });
      });

      /** The service's public origin, which passkey assertions name. */
      const origin = () => new URL(t.config.http.publicBaseUrl).origin;

      /** A person with a passkey (on `authn`, device-bound unless `synced`), registered through the API. */
      async function withPasskey(authn: SoftAuthenticator, synced = false): Promise<UserEntity> {
        const person = await createUser(t);
        const login = bearer((await tokenFor(t, person)).token);
        const options = await t.http.post(`${PASSKEYS}registration/options/`).set(login).expect(200);
        const response = authn.create(options.body, {
          origin: origin(),
          backupEligible: synced,
          backedUp: synced,
        });
        await t.http.post(`${PASSKEYS}registration/`).set(login).send({ response }).expect(201);
        return person;
      }

      /** The page's passkey button: its options (with the page's CSRF token), the answer posted: a 303. */
      async function passkeyOnPage(
        params: Record<string, string>,
        jar: CookieJar,
        html: string,
        authn: SoftAuthenticator,
      ) {
        const csrf = hiddenField(html, 'csrf') as string;
        const options = await t.http
          .post('/oauth/authorize/passkey/options')
          .set(jar.header())
          .send({ csrf })
          .expect(200);
        const response = JSON.stringify(authn.get(options.body, { origin: origin() }));
        const res = await t.http
          .post('/oauth/authorize/passkey')
          .set(jar.header())
          .type('form')
          .send({ ...params, csrf, response })
          .expect(303);
        jar.store(res);
      }

      it.each([
        ['a device-bound passkey', false, ['hwk', 'user', 'mfa']],
        ['a synced passkey', true, ['swk', 'user', 'mfa']],
      ])('%s alone on the page → acr mfa, amr of the key (through refresh too)', async (_n, synced, amr) => {
        const authn = new SoftAuthenticator();
        const person = await withPasskey(authn, synced);
        const params = request(pkce());
        const jar = new CookieJar();
        const page = await open(params, jar).expect(200);
        jar.store(page);
        await passkeyOnPage(params, jar, page.text, authn);
        // the passkey's session approves an authorization as any session does
        const { body } = await authorize({ jar });
        expect(await verifyIdToken(body.id_token)).toMatchObject({ sub: person.id, acr: ACR.mfa, amr });
        const refreshed = await refreshGrant(t, app, body.refresh_token).expect(200);
        expect(await verifyIdToken(refreshed.body.id_token)).toMatchObject({ acr: ACR.mfa, amr });
      });

      it('password, then the passkey as the second factor → acr mfa, amr pwd hwk mfa', async () => {
        const authn = new SoftAuthenticator();
        const person = await withPasskey(authn);
        const params = request(pkce());
        const jar = new CookieJar();
        const second = await passwordSignIn(params, jar, person.email, 200);
        expect(second.text).toContain('Use your passkey');
        await passkeyOnPage(params, jar, second.text, authn);
        const { body } = await authorize({ jar });
        expect(await verifyIdToken(body.id_token)).toMatchObject({
          sub: person.id,
          acr: ACR.mfa,
          amr: ['pwd', 'hwk', 'mfa'],
        });
      });
    });
  });

  // ------------------------------------------------------------------------------------------- 3. refresh

  describe('refresh', () => {
    it('a new id_token of the same sign-in: same sub, auth_time, sid, acr, amr; no nonce; its own at_hash', async () => {
      const { body } = await authorize({ over: { scope: 'openid email', nonce: 'first-only' } });
      const first = await verifyIdToken(body.id_token);
      const res = await refreshGrant(t, app, body.refresh_token).expect(200);
      expect(res.body.id_token).toEqual(expect.any(String));
      expect(res.body.id_token).not.toBe(body.id_token);
      const next = await verifyIdToken(res.body.id_token);
      for (const k of ['sub', 'auth_time', 'sid', 'acr', 'amr', 'aud', 'azp', 'email', 'email_verified'])
        expect({ k, v: next[k] }).toEqual({ k, v: first[k] });
      expect('nonce' in next).toBe(false);
      expect(next.at_hash).toBe(atHash(res.body.access_token));
      expect(next.iat).toBeGreaterThanOrEqual(first.iat!);
    });

    it('narrowing away openid → no id_token; narrowing to openid → an id_token without email', async () => {
      const { body } = await authorize({ over: { scope: 'openid email assets:read' } });
      const narrowed = await refreshGrant(t, app, body.refresh_token, { scope: 'openid' }).expect(200);
      expect(narrowed.body.scope).toBe('openid');
      const c = await verifyIdToken(narrowed.body.id_token);
      expect('email' in c).toBe(false);
      // narrowed to a scope without openid: no id_token, and openid cannot come back
      const second = await authorize({ over: { scope: 'openid assets:read' } });
      const plain = await refreshGrant(t, app, second.body.refresh_token, { scope: 'assets:read' }).expect(
        200,
      );
      expect(plain.body.scope).toBe('assets:read');
      expect('id_token' in plain.body).toBe(false);
      const widen = await refreshGrant(t, app, plain.body.refresh_token, { scope: 'openid assets:read' });
      expect(widen.status).toBe(400);
      expect(widen.body.error).toBe('invalid_scope');
    });
  });

  // ------------------------------------------------------------------------------------------- 4. userinfo

  describe('userinfo', () => {
    it('GET and POST: sub and the claims of the granted scopes, never cached', async () => {
      const { body } = await authorize({ over: { scope: 'openid profile email' } });
      for (const method of ['get', 'post'] as const) {
        const res = await t.http[method](USERINFO).set(bearer(body.access_token)).expect(200);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.body).toEqual({
          sub: user.id,
          email: user.email,
          email_verified: false,
          name: 'Test User',
          given_name: 'Test',
          family_name: 'User',
        });
      }
      const bare = await authorize();
      for (const method of ['get', 'post'] as const) {
        const res = await t.http[method](USERINFO).set(bearer(bare.body.access_token)).expect(200);
        expect(res.body).toEqual({ sub: user.id });
      }
    });

    it('the claims are the person’s as they are now', async () => {
      const renamed = await createUser(t);
      const { body } = await authorize({ over: { scope: 'openid profile' }, email: renamed.email });
      await t.ds.query("UPDATE users SET first_name = 'Ada', last_name = NULL WHERE id = $1", [renamed.id]);
      const res = await t.http.get(USERINFO).set(bearer(body.access_token)).expect(200);
      expect(res.body).toEqual({ sub: renamed.id, name: 'Ada', given_name: 'Ada' });
    });

    it('no token → 401 with the bare challenge (no error code)', async () => {
      for (const method of ['get', 'post'] as const) {
        const res = await t.http[method](USERINFO).expect(401);
        expect(res.headers['www-authenticate']).toBe(REALM);
      }
    });

    const invalidToken = (res: Response) => {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(
        /^Bearer realm="portcullis", error="invalid_token", error_description="[^"\\]*"$/,
      );
      expect(res.headers['cache-control']).toBe('no-store');
    };

    it('a malformed or forged token → 401 invalid_token', async () => {
      const { privateKey } = await generateKeyPair('ES256');
      const kid = (await jwks()).keys[0].kid as string;
      const forged = await new SignJWT({ sub: user.id, scope: 'openid', client_id: app.id })
        .setProtectedHeader({ alg: 'ES256', kid })
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
      for (const token of ['garbage', 'a.b.c', forged]) {
        for (const method of ['get', 'post'] as const) {
          invalidToken(await t.http[method](USERINFO).set(bearer(token)));
        }
      }
    });

    it('an expired token → 401 invalid_token', async () => {
      const { body } = await authorize();
      await t.http.get(USERINFO).set(bearer(body.access_token)).expect(200);
      clock.advance((ACCESS_TTL + 60) * 1000);
      try {
        invalidToken(await t.http.get(USERINFO).set(bearer(body.access_token)));
      } finally {
        clock.advance(-(ACCESS_TTL + 60) * 1000);
      }
    });

    it('a revoked token → 401 invalid_token', async () => {
      const { body } = await authorize();
      await tokenRequest(t, { ...clientForm(app), token: body.access_token }, {}, OAUTH.revoke).expect(200);
      for (const method of ['get', 'post'] as const)
        invalidToken(await t.http[method](USERINFO).set(bearer(body.access_token)));
    });

    it('an OAuth token without openid → 403 insufficient_scope', async () => {
      const { body } = await authorize({ over: { scope: 'assets:read' } });
      for (const method of ['get', 'post'] as const) {
        const res = await t.http[method](USERINFO).set(bearer(body.access_token)).expect(403);
        expect(res.headers['www-authenticate']).toBe(`${REALM}, error="insufficient_scope", scope="openid"`);
      }
    });

    it('user_impersonation does not stand in for openid → 403 insufficient_scope', async () => {
      const { token } = await tokenFor(t, user, {
        kind: 'OAUTH',
        appId: app.id,
        scopes: ['user_impersonation'],
      });
      expect(await works(token)).toBe(true);
      const res = await t.http.get(USERINFO).set(bearer(token)).expect(403);
      expect(res.headers['www-authenticate']).toBe(`${REALM}, error="insufficient_scope", scope="openid"`);
    });

    it('the token in the query string is not read (no token presented → the bare challenge)', async () => {
      const { body } = await authorize();
      const res = await t.http.get(USERINFO).query({ access_token: body.access_token }).expect(401);
      expect(res.headers['www-authenticate']).toBe(REALM);
    });

    it('the token of a deactivated account → 401 invalid_token', async () => {
      const leaving = await createUser(t);
      const { body } = await authorize({ email: leaving.email });
      await t.http.get(USERINFO).set(bearer(body.access_token)).expect(200);
      await t.ds.query("UPDATE users SET status = 'INACTIVE' WHERE id = $1", [leaving.id]);
      invalidToken(await t.http.get(USERINFO).set(bearer(body.access_token)));
    });

    it('a person’s sign-in (LOGIN) or a PAT → 401 invalid_token', async () => {
      const login = (await tokenFor(t, user)).token;
      const patApp = await createPatApp(t);
      const pat = (
        await tokenFor(t, { id: patApp.userId, system_domain_id: t.domainId } as UserEntity, {
          kind: 'PAT',
          appId: patApp.id,
        })
      ).token;
      expect(await works(login)).toBe(true);
      expect(await works(pat)).toBe(true);
      for (const token of [login, pat]) {
        for (const method of ['get', 'post'] as const) {
          const res = await t.http[method](USERINFO).set(bearer(token));
          invalidToken(res);
          expect(res.headers['x-error-code']).toBe('oidc.NOT_AN_ACCESS_TOKEN');
        }
      }
    });
  });

  // ------------------------------------------------------------------------------------------- 5. consent page

  describe('the consent page’s OpenID parameters', () => {
    const callback = (res: Response) => {
      expect(res.status).toBe(303);
      expectConsentHeaders(res);
      const url = new URL(res.headers.location as string);
      expect(`${url.origin}${url.pathname}`).toBe(`${RP}/cb`);
      return url;
    };

    it('prompt=none without a session → login_required to the client, with state and iss, no code', async () => {
      const params = request(pkce(), { prompt: 'none', state: 'st-none' });
      const url = callback(await open(params).expect(303));
      expect(Object.fromEntries(url.searchParams)).toEqual({
        error: 'login_required',
        error_description: expect.any(String),
        state: 'st-none',
        iss: ISSUER,
      });
    });

    it('prompt=none with a session but no remembered consent → consent_required', async () => {
      const fresh = await createUser(t);
      const jar = await signIn(request(pkce()), fresh.email);
      const url = callback(await open(request(pkce(), { prompt: 'none', state: 's2' }), jar).expect(303));
      expect(url.searchParams.get('error')).toBe('consent_required');
      expect(url.searchParams.get('state')).toBe('s2');
      expect(url.searchParams.get('iss')).toBe(ISSUER);
      expect(url.searchParams.has('code')).toBe(false);
    });

    it('prompt=none with a remembered consent → a code, whose id_token carries the nonce', async () => {
      const fresh = await createUser(t);
      const { jar } = await authorize({ over: { scope: 'openid email' }, email: fresh.email });
      const p = pkce();
      const url = callback(
        await open(
          request(p, { scope: 'openid email', prompt: 'none', nonce: 'silent', state: 's3' }),
          jar,
        ).expect(303),
      );
      expect([...url.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
      const tokens = await exchangeCode(t, app, url.searchParams.get('code')!, p.verifier).expect(200);
      expect(await verifyIdToken(tokens.body.id_token)).toMatchObject({ sub: fresh.id, nonce: 'silent' });
    });

    it('remembered consent: skipped for the same or fewer scopes; shown for more, for prompt=consent, for plain OAuth, for another person', async () => {
      const fresh = await createUser(t, { roles: ['can_read_assets'] });
      const { jar } = await authorize({ over: { scope: 'openid email' }, email: fresh.email });
      for (const scope of ['openid email', 'openid', 'email openid']) {
        const p = pkce();
        const res = await open(request(p, { scope }), jar).expect(303);
        const code = callback(res).searchParams.get('code');
        expect(code).toBeTruthy();
        await exchangeCode(t, app, code!, p.verifier).expect(200);
      }
      for (const over of [
        { scope: 'openid email profile' },
        { scope: 'openid email', prompt: 'consent' },
        { scope: 'openid', prompt: 'consent' },
        { scope: 'email' },
        { scope: 'assets:read' },
      ]) {
        const res = await open(request(pkce(), over), jar);
        expect({ over, status: res.status }).toEqual({ over, status: 200 });
        expect(res.text).toContain('value="allow"');
      }
      // allowing more widens what is remembered
      await authorize({ over: { scope: 'openid profile' }, jar });
      const p = pkce();
      callback(await open(request(p, { scope: 'openid email profile' }), jar).expect(303));
      // another person's session sees the screen
      const stranger = await signIn(request(pkce()), (await createUser(t)).email);
      const theirs = await open(request(pkce(), { scope: 'openid email' }), stranger).expect(200);
      expect(theirs.text).toContain('value="allow"');
    });

    it('a denial is not remembered', async () => {
      const fresh = await createUser(t);
      const params = request(pkce(), { scope: 'openid' });
      const jar = await signIn(params, fresh.email);
      const res = await decide(params, jar, 'deny');
      expect(new URL(res.headers.location).searchParams.get('error')).toBe('access_denied');
      const again = await open(request(pkce(), { scope: 'openid' }), jar).expect(200);
      expect(again.text).toContain('value="allow"');
    });

    it.each([
      ['prompt=login', { prompt: 'login' }],
      ['max_age=0', { max_age: '0' }],
      ['prompt=login consent', { prompt: 'login consent' }],
    ])('%s with a session → the sign-in form; signed in → the consent page (no loop)', async (_n, over) => {
      const fresh = await createUser(t);
      const jar = await signIn(request(pkce()), fresh.email);
      const oldSession = jar.get(SESSION_COOKIE);
      const p = pkce();
      const params = request(p, { ...over, nonce: 'again' });
      const form = await open(params, jar).expect(200);
      expect(form.text).toContain('name="password"');
      expect(form.text).not.toContain('value="allow"');
      const back = await passwordSignIn(params, jar, fresh.email);
      expect(jar.get(SESSION_COOKIE)).not.toBe(oldSession);
      const next = new URL(back.headers.location as string, ISSUER);
      expect(next.pathname).toBe('/oauth/authorize');
      expect(next.searchParams.has('max_age')).toBe(false);
      expect((next.searchParams.get('prompt') ?? '').split(' ')).not.toContain('login');
      expect(next.searchParams.get('nonce')).toBe('again');
      const consent = await t.http
        .get(next.pathname + next.search)
        .set(jar.header())
        .expect(200);
      expect(consent.text).toContain('value="allow"');
      const allowed = await t.http
        .post(OAUTH.consent)
        .set(jar.header())
        .type('form')
        .send({
          ...Object.fromEntries(next.searchParams),
          csrf: hiddenField(consent.text, 'csrf') as string,
          decision: 'allow',
        })
        .expect(303);
      const tokens = await exchangeCode(t, app, codeOf(allowed)!, p.verifier).expect(200);
      expect(await verifyIdToken(tokens.body.id_token)).toMatchObject({ sub: fresh.id, nonce: 'again' });
    });

    it('max_age: a recent enough sign-in passes; an older one signs in again', async () => {
      const fresh = await createUser(t);
      const jar = await signIn(request(pkce()), fresh.email);
      const recent = await open(request(pkce(), { max_age: '3600' }), jar).expect(200);
      expect(recent.text).toContain('value="allow"');
      clock.advance(61_000);
      try {
        const old = await open(request(pkce(), { max_age: '60' }), jar).expect(200);
        expect(old.text).toContain('name="password"');
        // prompt=none with too old a sign-in: login_required
        const silent = await open(request(pkce(), { max_age: '60', prompt: 'none' }), jar).expect(303);
        expect(new URL(silent.headers.location).searchParams.get('error')).toBe('login_required');
      } finally {
        clock.advance(-61_000);
      }
    });

    it('login_hint pre-fills the email, escaped', async () => {
      const hinted = await open(request(pkce(), { login_hint: 'someone@example.com' })).expect(200);
      expect(hinted.text).toContain('value="someone@example.com"');
      const hostile = '"><script>alert(1)</script>@x.test';
      const res = await open(request(pkce(), { login_hint: hostile })).expect(200);
      expectConsentHeaders(res);
      expect(withoutOwnScripts(res.text)).not.toContain('<script');
      expect(res.text).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@x.test"');
      // it travels with the request, escaped too
      expect(hiddenField(res.text, 'login_hint')).toBe(
        '&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;@x.test',
      );
    });

    it.each([
      ['a nonce over 512 characters', { nonce: 'n'.repeat(513) }, 'Invalid nonce'],
      ['prompt=none login', { prompt: 'none login' }, 'Invalid prompt'],
      ['prompt=none consent', { prompt: 'none consent' }, 'Invalid prompt'],
      ['an unknown prompt', { prompt: 'bogus' }, 'Invalid prompt'],
      ['max_age=-1', { max_age: '-1' }, 'Invalid max_age'],
      ['max_age=abc', { max_age: 'abc' }, 'Invalid max_age'],
      ['max_age=1.5', { max_age: '1.5' }, 'Invalid max_age'],
      ['max_age of 10 digits', { max_age: '9999999999' }, 'Invalid max_age'],
      [
        'prompt=none with an unregistered redirect_uri',
        { prompt: 'none', redirect_uri: 'https://evil.example/cb' },
        'Unregistered redirect URI',
      ],
      ['a login_hint over 320 characters', { login_hint: `${'a'.repeat(320)}@x.test` }, 'Invalid login_hint'],
    ])('%s → a 400 error page, never a redirect or a code', async (_n, over, title) => {
      const params = request(pkce(), over);
      const jar = await signIn(request(pkce()));
      const [{ n: before }] = await t.ds.query('SELECT count(*)::int AS n FROM oauth_authorization_codes');
      for (const sent of [new CookieJar(), jar]) {
        const res = await open(params, sent).expect(400);
        expectConsentHeaders(res);
        expect(res.headers.location).toBeUndefined();
        expect(res.text).toContain(`<h1 class="error">${title}</h1>`);
        expect(res.text).not.toContain('<form');
      }
      const posted = await t.http
        .post(OAUTH.consent)
        .set(jar.header())
        .type('form')
        .send({ ...params, csrf: jar.get('portcullis_csrf') as string, decision: 'allow' })
        .expect(400);
      expect(posted.headers.location).toBeUndefined();
      const [{ n: after }] = await t.ds.query('SELECT count(*)::int AS n FROM oauth_authorization_codes');
      expect(after).toBe(before);
    });
  });

  // ------------------------------------------------------------------------------------------- SSO

  describe('single sign-on', () => {
    let w: SamlWorld;
    let acme: OAuthApp;

    beforeAll(async () => {
      w = await samlWorld(t);
      acme = await createOAuthApp(t, {
        kind: 'browser',
        name: 'Acme RP',
        scopes: ['openid', 'email'],
        redirectUris: ['https://rp.acme.test/cb'],
        domainId: w.domainId,
      });
    });

    const local = (url: string) => {
      const u = new URL(url, ISSUER);
      return u.pathname + u.search;
    };

    /** From the IdP link of a page to the consent page's 303 back to the request, signed in. */
    async function throughIdp(html: string, jar: CookieJar) {
      const sso = /href="([^"]+)"/.exec(html)![1].replace(/&amp;/g, '&');
      expect(sso).toContain(`/sso/${w.idp.public_id}/?return_to=`);
      const toIdp = await t.http.get(local(sso)).expect(302);
      const acs = await w.post(w.response({ inResponseTo: authnRequestOf(toIdp.headers.location).id }));
      expect(acs.status).toBe(302);
      const signedIn = await t.http.get(local(acs.location!)).set(jar.header()).expect(303);
      jar.store(signedIn);
      return new URL(signedIn.headers.location as string, ISSUER);
    }

    it('a login_hint at a single sign-on domain goes to its IdP, and back to the same request; acr federated, amr sso', async () => {
      const p = pkce();
      const params = request(p, { scope: 'openid email', login_hint: w.member.email, nonce: 'sso-n' }, acme);
      const jar = new CookieJar();
      const page = await open(params, jar).expect(200);
      jar.store(page);
      expect(page.text).toContain('Continue to your identity provider');
      expect(page.text).not.toContain('name="password"');
      const again = await throughIdp(page.text, jar);
      expect(Object.fromEntries(again.searchParams)).toEqual(params);
      const consent = await t.http.get(local(again.href)).set(jar.header()).expect(200);
      const allow = await t.http
        .post(OAUTH.consent)
        .set(jar.header())
        .type('form')
        .send({ ...params, csrf: hiddenField(consent.text, 'csrf') as string, decision: 'allow' })
        .expect(303);
      const tokens = await exchangeCode(t, acme, codeOf(allow)!, p.verifier).expect(200);
      expect(await verifyIdToken(tokens.body.id_token, acme.id)).toMatchObject({
        sub: w.member.id,
        email: w.member.email,
        acr: ACR.federated,
        amr: ['sso'],
        nonce: 'sso-n',
      });
    });

    it('a hostile login_hint is no SSO lookup gone wrong: the escaped form', async () => {
      const res = await open(request(pkce(), { login_hint: `"><b>@${w.emailDomain}` }, acme)).expect(200);
      expect(res.text).not.toContain('<b>');
    });
  });

  // ------------------------------------------------------------------------------------------- 6. logout

  describe('RP-initiated logout /oauth/logout', () => {
    /** A signed-in browser and the grant it approved: its tokens, and its session's login token. */
    async function signedInWithGrant(client: OAuthApp = app) {
      const fresh = await createUser(t);
      const { body, jar } = await authorize({ over: { scope: 'openid email' }, email: fresh.email, client });
      const session = jar.get(SESSION_COOKIE)!;
      expect(await works(session)).toBe(true);
      expect(await reachesUserinfo(body.access_token)).toBe(true);
      return { fresh, body, jar, session };
    }

    async function expectEnded(g: Awaited<ReturnType<typeof signedInWithGrant>>, client: OAuthApp = app) {
      expect(await works(g.session)).toBe(false);
      expect(await reachesUserinfo(g.body.access_token)).toBe(false);
      const refresh = await refreshGrant(t, client, g.body.refresh_token);
      expect(refresh.status).toBe(400);
      expect(refresh.body.error).toBe('invalid_grant');
    }

    async function expectNothingEnded(g: Awaited<ReturnType<typeof signedInWithGrant>>) {
      expect(await works(g.session)).toBe(true);
      expect(await reachesUserinfo(g.body.access_token)).toBe(true);
      // the consent page still knows the browser
      const page = await open(request(pkce(), { scope: 'openid email profile' }), g.jar).expect(200);
      expect(page.text).toContain('value="allow"');
    }

    const refused = (res: Response, title: string) => {
      expect(res.status).toBe(400);
      expectConsentHeaders(res);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain(`<h1 class="error">${title}</h1>`);
      expect(setCookie(res, SESSION_COOKIE)).toBeUndefined();
    };

    it('id_token_hint + registered post_logout_redirect_uri + state → 303 there; session and grant ended', async () => {
      const g = await signedInWithGrant();
      const res = await t.http
        .get(LOGOUT)
        .query({ id_token_hint: g.body.id_token, post_logout_redirect_uri: BYE, state: 'bye-state' })
        .set(g.jar.header())
        .expect(303);
      expectConsentHeaders(res);
      expect(res.headers.location).toBe(`${BYE}?state=bye-state`);
      expect(setCookie(res, SESSION_COOKIE)).toMatch(/^portcullis_session=;.*Expires=Thu, 01 Jan 1970/);
      await expectEnded(g);
      // the browser is signed out on the consent page
      g.jar.store(res);
      const page = await open(request(pkce()), g.jar).expect(200);
      expect(page.text).toContain('name="password"');
    });

    it('the same with client_id, by POST; an expired hint is still read', async () => {
      const g = await signedInWithGrant();
      const res = await t.http
        .post(LOGOUT)
        .type('form')
        .set(g.jar.header())
        .send({ id_token_hint: g.body.id_token, client_id: app.id, post_logout_redirect_uri: BYE })
        .expect(303);
      expect(res.headers.location).toBe(BYE);
      await expectEnded(g);

      // an expired hint is still a hint (Logout §2: a logout may come long after): read, checked against
      // client_id, and it names its client for the return URI. (Its session has expired with it: the
      // default sign-in and access token lifetimes are equal, so there is nothing left to end.)
      const late = await signedInWithGrant();
      clock.advance((ACCESS_TTL + 60) * 1000);
      try {
        refused(
          await t.http.get(LOGOUT).query({ id_token_hint: late.body.id_token, client_id: other.id }),
          'Wrong client',
        );
        const back = await t.http
          .get(LOGOUT)
          .query({ id_token_hint: late.body.id_token, post_logout_redirect_uri: BYE })
          .expect(303);
        expect(back.headers.location).toBe(BYE);
      } finally {
        clock.advance(-(ACCESS_TTL + 60) * 1000);
      }
    });

    it('a hint of another session ends nothing by itself: that browser is asked about its own session, a browser without one goes back', async () => {
      const g = await signedInWithGrant();
      const bystander = await signedInWithGrant();
      const res = await t.http
        .get(LOGOUT)
        .query({ id_token_hint: g.body.id_token })
        .set(bystander.jar.header())
        .expect(200);
      expect(res.text).toContain('<h1>Sign out?</h1>');
      expect(res.text).toContain(bystander.fresh.email);
      expect(setCookie(res, SESSION_COOKIE)).toBeUndefined();
      // no browser session at all (an attacker holding someone's id_token): back to the app, nothing ended
      const anonymous = await t.http
        .get(LOGOUT)
        .query({ id_token_hint: g.body.id_token, post_logout_redirect_uri: BYE })
        .expect(303);
      expect(anonymous.headers.location).toBe(BYE);
      await expectNothingEnded(g);
      await expectNothingEnded(bystander);
    });

    it('without a hint: a confirmation page; its POST without or with a wrong CSRF → 403, nothing ended', async () => {
      const g = await signedInWithGrant();
      const res = await t.http
        .get(LOGOUT)
        .query({ client_id: app.id, post_logout_redirect_uri: BYE, state: 'st' })
        .set(g.jar.header())
        .expect(200);
      expectConsentHeaders(res);
      g.jar.store(res);
      expect(res.text).toContain('<h1>Sign out?</h1>');
      expect(res.text).toContain(g.fresh.email);
      const csrf = hiddenField(res.text, 'csrf') as string;
      expect(csrf).toBeTruthy();
      await expectNothingEnded(g);
      const form = { client_id: app.id, post_logout_redirect_uri: BYE, state: 'st', confirm: '1' };
      for (const bad of [{}, { csrf: 'A'.repeat(43) }, { csrf: `${csrf}x` }]) {
        const post = await t.http
          .post(LOGOUT)
          .type('form')
          .set(g.jar.header())
          .send({ ...form, ...bad })
          .expect(403);
        expect(post.headers.location).toBeUndefined();
        expect(setCookie(post, SESSION_COOKIE)).toBeUndefined();
      }
      // the right token without its cookie is no better
      const noCookie = new CookieJar().set(SESSION_COOKIE, g.session);
      await t.http
        .post(LOGOUT)
        .type('form')
        .set(noCookie.header())
        .send({ ...form, csrf })
        .expect(403);
      await expectNothingEnded(g);

      const ok = await t.http
        .post(LOGOUT)
        .type('form')
        .set(g.jar.header())
        .send({ ...form, csrf })
        .expect(303);
      expect(ok.headers.location).toBe(`${BYE}?state=st`);
      expect(setCookie(ok, SESSION_COOKIE)).toMatch(/^portcullis_session=;/);
      await expectEnded(g);
    });

    it('a hostile state is carried as one encoded parameter, never spliced into the URI', async () => {
      const g = await signedInWithGrant();
      const state = '"><script>&x=1#frag';
      const res = await t.http
        .get(LOGOUT)
        .query({ id_token_hint: g.body.id_token, post_logout_redirect_uri: BYE, state })
        .expect(303);
      const url = new URL(res.headers.location as string);
      expect(`${url.origin}${url.pathname}`).toBe(BYE);
      expect([...url.searchParams]).toEqual([['state', state]]);
      expect(url.hash).toBe('');
    });

    it('without a hint or a session: signed out, nothing to confirm', async () => {
      const res = await t.http.get(LOGOUT).expect(200);
      expect(res.text).toContain('You are signed out');
      expect(res.text).not.toContain('<form');
    });

    it('a hint signed by another key (or not a JWT, or unsigned) → 400, nothing ended', async () => {
      const g = await signedInWithGrant();
      const real = await verifyIdToken(g.body.id_token);
      const kid = decodeProtectedHeader(g.body.id_token).kid as string;
      const { privateKey, publicKey } = await generateKeyPair('ES256');
      const claims = { ...real };
      const forged = await new SignJWT(claims as JWTPayload)
        .setProtectedHeader({ alg: 'ES256', kid })
        .sign(privateKey);
      const foreignKid = await new SignJWT(claims as JWTPayload)
        .setProtectedHeader({ alg: 'ES256', kid: (await exportJWK(publicKey)).x as string })
        .sign(privateKey);
      const [h, p] = g.body.id_token.split('.');
      const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', kid })).toString('base64url')}.${p}.`;
      const swapped = `${h}.${Buffer.from(JSON.stringify({ ...real, sub: user.id })).toString('base64url')}.${
        g.body.id_token.split('.')[2]
      }`;
      for (const hint of [
        forged,
        foreignKid,
        unsigned,
        swapped,
        'not-a-jwt',
        g.body.access_token.slice(0, -2),
      ]) {
        refused(
          await t.http
            .get(LOGOUT)
            .query({ id_token_hint: hint, post_logout_redirect_uri: BYE, state: 's' })
            .set(g.jar.header()),
          'Invalid id_token_hint',
        );
      }
      await expectNothingEnded(g);
    });

    it('a token of ours that is no id_token (an access token) is no hint', async () => {
      const g = await signedInWithGrant();
      refused(
        await t.http
          .get(LOGOUT)
          .query({ id_token_hint: g.body.access_token, post_logout_redirect_uri: BYE })
          .set(g.jar.header()),
        'Invalid id_token_hint',
      );
      await expectNothingEnded(g);
    });

    it('a hint for another client than client_id → 400, nothing ended', async () => {
      const g = await signedInWithGrant();
      for (const query of [
        { id_token_hint: g.body.id_token, client_id: other.id },
        {
          id_token_hint: g.body.id_token,
          client_id: other.id,
          post_logout_redirect_uri: 'https://other-rp.example/bye',
        },
      ]) {
        refused(await t.http.get(LOGOUT).query(query).set(g.jar.header()), 'Wrong client');
      }
      await expectNothingEnded(g);
    });

    it('an unregistered post_logout_redirect_uri → 400, nothing ended', async () => {
      const g = await signedInWithGrant();
      for (const uri of [
        'https://evil.example/bye',
        `${RP}/cb`, // a redirect URI is not a post-logout one
        `${BYE}/`,
        `${BYE}?x=1`,
        'https://other-rp.example/bye', // another app's
        'javascript:alert(1)',
      ]) {
        refused(
          await t.http
            .get(LOGOUT)
            .query({ id_token_hint: g.body.id_token, post_logout_redirect_uri: uri })
            .set(g.jar.header()),
          'Unregistered post_logout_redirect_uri',
        );
      }
      await expectNothingEnded(g);
    });

    it('post_logout_redirect_uri without a hint or client_id → 400, nothing ended (also by confirmation)', async () => {
      const g = await signedInWithGrant();
      refused(
        await t.http.get(LOGOUT).query({ post_logout_redirect_uri: BYE }).set(g.jar.header()),
        'Unknown application',
      );
      refused(
        await t.http
          .get(LOGOUT)
          .query({ post_logout_redirect_uri: BYE, client_id: '00000000-0000-4000-8000-000000000000' })
          .set(g.jar.header()),
        'Unknown application',
      );
      refused(
        await t.http
          .post(LOGOUT)
          .type('form')
          .set(g.jar.header())
          .send({ post_logout_redirect_uri: BYE, confirm: '1', csrf: g.jar.get('portcullis_csrf') ?? '' }),
        'Unknown application',
      );
      await expectNothingEnded(g);
    });
  });
});

/** The issuer with a path: discovery where an RP derives it from the issuer, and nowhere else. */
describe('OpenID Connect discovery under an issuer path', () => {
  let t: TestApp;
  const BASE = 'https://idp.example.com/auth';

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_BASE_URL: `${BASE}/` });
  });
  afterAll(() => t.close());

  it('/{path}/.well-known/openid-configuration answers the issuer’s document', async () => {
    const res = await t.http.get(`/auth${DISCOVERY}`).expect(200);
    expect(res.body.issuer).toBe(BASE);
    expect(res.body.end_session_endpoint).toBe(`${BASE}/oauth/logout`);
    expect(res.body.userinfo_endpoint).toBe(`${BASE}/API/auth/v1/oauth/userinfo/`);
    expect(res.body).toEqual((await t.http.get(DISCOVERY).expect(200)).body);
    const oauth = await t.http.get(`${OAUTH.metadata}/auth`).expect(200);
    expect(oauth.body.issuer).toBe(BASE);
    for (const [k, v] of Object.entries(oauth.body as Record<string, unknown>))
      expect({ k, v: res.body[k] }).toEqual({ k, v });
  });

  it('any other prefix is a 404', async () => {
    for (const path of ['/other', '/auth/auth', '/auth/x', '/AUTH', '/x/auth', '/auth%2F..']) {
      const res = await t.http.get(`${path}${DISCOVERY}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
    for (const path of ['/other', '/auth/x', '/AUTH']) {
      const res = await t.http.get(`${OAUTH.metadata}${path}`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });
});
