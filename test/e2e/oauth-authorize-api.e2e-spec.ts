import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  authorizationRequest,
  clientCredentials,
  createOAuthApp,
  createPatApp,
  domainAdminToken,
  exchangeCode,
  expectTokenResponse,
  OAUTH,
  type OAuthApp,
  obtainTokens,
  pkce,
} from '../utils/oauth.js';

const ISSUER = 'http://localhost:3000';
const LOGIN_ONLY = { errors: ['Only a signed-in user session can approve applications'] };

/** GET/POST /API/auth/v1/oauth/authorize/: for consent UIs rendered by clients of this API. */
describe('authorize API /API/auth/v1/oauth/authorize/', () => {
  let t: TestApp;
  let user: UserEntity;
  let loginToken: string;
  let app: OAuthApp;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
    loginToken = (await tokenFor(t, user)).token;
    app = await createOAuthApp(t, {
      kind: 'server',
      name: 'Archive Sync',
      scopes: ['assets:read', 'collections:read'],
      redirectUris: ['https://archive.example/cb'],
    });
  });
  afterAll(() => t.close());

  async function codeCount(): Promise<number> {
    const [{ n }] = await t.ds.query('SELECT count(*)::int AS n FROM oauth_authorization_codes');
    return n;
  }

  describe('GET describes the pending request', () => {
    it('app name (also as client.name), URL, redirect URI, scope names and descriptions, state', async () => {
      const params = authorizationRequest(app, pkce(), { scope: 'assets:read', state: 'st-1' });
      const res = await t.http.get(OAUTH.authorizeApi).query(params).set(bearer(loginToken)).expect(200);
      expect(res.body).toEqual({
        client_id: app.id,
        client: { name: 'Archive Sync' },
        app_name: 'Archive Sync',
        app_url: null,
        redirect_uri: 'https://archive.example/cb',
        scopes: ['assets:read'],
        scope_descriptions: [
          {
            name: 'assets:read',
            description:
              'Search and read assets, files, formats, proxies, versions, metadata, jobs, transfers and shares',
          },
        ],
        state: 'st-1',
      });
    });

    it('scope omitted → every scope of the app; no state → null; trailing slash optional', async () => {
      const params = authorizationRequest(app, pkce(), { state: undefined });
      const res = await t.http
        .get('/API/auth/v1/oauth/authorize')
        .query(params)
        .set(bearer(loginToken))
        .expect(200);
      expect(res.body.scopes).toEqual(['assets:read', 'collections:read']);
      expect(res.body.scope_descriptions.map((s: { name: string }) => s.name)).toEqual(res.body.scopes);
      expect(res.body.state).toBeNull();
    });
  });

  describe('POST records the decision', () => {
    it('allow → 200 {redirect_to} with code, state and iss; never cached; the code is exchanged', async () => {
      const p = pkce();
      const params = authorizationRequest(app, p, { state: 'st-2' });
      const res = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(loginToken))
        .send({ ...params, decision: 'allow' })
        .expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['redirect_to', 'redirect_uri']);
      expect(res.body.redirect_uri).toBe(res.body.redirect_to);
      expect(res.headers['cache-control']).toBe('no-store');
      const to = new URL(res.body.redirect_to);
      expect(`${to.origin}${to.pathname}`).toBe('https://archive.example/cb');
      expect([...to.searchParams.keys()].sort()).toEqual(['code', 'iss', 'state']);
      expect(to.searchParams.get('state')).toBe('st-2');
      expect(to.searchParams.get('iss')).toBe(ISSUER);
      const exchange = await exchangeCode(t, app, to.searchParams.get('code') as string, p.verifier);
      expectTokenResponse(exchange, { scope: 'assets:read collections:read', refresh: true });
    });

    it('deny → error=access_denied and state, no code', async () => {
      const params = authorizationRequest(app, pkce(), { state: 'st-3' });
      const res = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(loginToken))
        .send({ ...params, decision: 'deny' })
        .expect(200);
      expect(Object.fromEntries(new URL(res.body.redirect_to).searchParams)).toEqual({
        error: 'access_denied',
        error_description: 'The user denied the request',
        state: 'st-3',
        iss: ISSUER,
      });
    });

    it('a decision other than allow or deny → 400', async () => {
      const res = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(loginToken))
        .send({ ...authorizationRequest(app, pkce()), decision: 'yes' })
        .expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['decision']);
    });
  });

  describe('POST in the published form: confirm present allows, absent denies', () => {
    /** The published client: everything in the query string, no body. */
    const postQuery = (query: Record<string, string>, token = loginToken) =>
      t.http.post(`${OAUTH.authorizeApi}?${new URLSearchParams(query)}`).set(bearer(token));

    it('every parameter and confirm in the query → {redirect_uri} with a code that exchanges', async () => {
      const p = pkce();
      const params = authorizationRequest(app, p, { state: 'pub-1', scope: 'assets:read' });
      const res = await postQuery({ ...params, confirm: '' }).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({ redirect_uri: expect.any(String), redirect_to: res.body.redirect_uri });
      const to = new URL(res.body.redirect_uri);
      expect(`${to.origin}${to.pathname}`).toBe('https://archive.example/cb');
      expect(to.searchParams.get('state')).toBe('pub-1');
      expect(to.searchParams.get('iss')).toBe(ISSUER);
      const exchange = await exchangeCode(t, app, to.searchParams.get('code') as string, p.verifier);
      expectTokenResponse(exchange, { scope: 'assets:read', refresh: true });
    });

    it('a bare ?confirm (no value) allows', async () => {
      const params = authorizationRequest(app, pkce());
      const res = await t.http
        .post(`${OAUTH.authorizeApi}?${new URLSearchParams(params)}&confirm`)
        .set(bearer(loginToken))
        .expect(200);
      expect(new URL(res.body.redirect_uri).searchParams.get('code')).toEqual(expect.any(String));
    });

    it('no confirm (and no decision) → denied: error=access_denied, no code stored', async () => {
      const before = await codeCount();
      const params = authorizationRequest(app, pkce(), { state: 'pub-2' });
      const res = await postQuery(params).expect(200);
      expect(Object.fromEntries(new URL(res.body.redirect_uri).searchParams)).toEqual({
        error: 'access_denied',
        error_description: 'The user denied the request',
        state: 'pub-2',
        iss: ISSUER,
      });
      expect(await codeCount()).toBe(before);
    });

    it('confirm in a form-encoded body, with the parameters in the query → allow', async () => {
      const params = authorizationRequest(app, pkce());
      const res = await postQuery(params).type('form').send({ confirm: 'yes' }).expect(200);
      expect(new URL(res.body.redirect_uri).searchParams.get('code')).toEqual(expect.any(String));
    });

    it('everything in a form-encoded body; a form without confirm denies', async () => {
      const params = authorizationRequest(app, pkce());
      const allowed = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(loginToken))
        .type('form')
        .send({ ...params, confirm: '' })
        .expect(200);
      expect(new URL(allowed.body.redirect_uri).searchParams.get('code')).toEqual(expect.any(String));
      const denied = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(loginToken))
        .type('form')
        .send(params)
        .expect(200);
      expect(new URL(denied.body.redirect_uri).searchParams.get('error')).toBe('access_denied');
    });

    it.each([
      ['an empty string', ''],
      ['true', true],
      ['any text', 'false'],
    ])('JSON confirm: %s → allow', async (_n, confirm) => {
      const res = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(loginToken))
        .send({ ...authorizationRequest(app, pkce()), confirm })
        .expect(200);
      expect(new URL(res.body.redirect_uri).searchParams.get('code')).toEqual(expect.any(String));
    });

    it.each([
      ['false', false],
      ['null', null],
      ['a number', 1],
      ['a list', ['']],
    ])('JSON confirm: %s → 400, never read as a yes; nothing issued', async (_n, confirm) => {
      const before = await codeCount();
      const res = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(loginToken))
        .send({ ...authorizationRequest(app, pkce()), confirm })
        .expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['confirm']);
      expect(await codeCount()).toBe(before);
    });

    it('a repeated ?confirm → 400', async () => {
      const params = authorizationRequest(app, pkce());
      const res = await t.http
        .post(`${OAUTH.authorizeApi}?${new URLSearchParams(params)}&confirm=1&confirm=2`)
        .set(bearer(loginToken))
        .expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['confirm']);
    });

    it('confirm with decision allow → allow; confirm with decision deny → 400, nothing issued', async () => {
      const params = authorizationRequest(app, pkce());
      const ok = await postQuery({ ...params, confirm: '' })
        .send({ decision: 'allow' })
        .expect(200);
      expect(new URL(ok.body.redirect_uri).searchParams.get('code')).toEqual(expect.any(String));
      const before = await codeCount();
      const res = await postQuery({ ...params, confirm: '' })
        .send({ decision: 'deny' })
        .expect(400);
      expect(res.body).toEqual({ errors: { decision: 'disagrees with confirm (present means allow)' } });
      const json = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(loginToken))
        .send({ ...params, confirm: true, decision: 'deny' })
        .expect(400);
      expect(Object.keys(json.body.errors)).toEqual(['decision']);
      expect(await codeCount()).toBe(before);
    });

    it('parameters split between the query and the body are merged', async () => {
      const p = pkce();
      const { client_id, redirect_uri, ...rest } = authorizationRequest(app, p, { state: 'split' });
      const res = await postQuery({ client_id, redirect_uri })
        .send({ ...rest, confirm: '' })
        .expect(200);
      const to = new URL(res.body.redirect_uri);
      expect(to.searchParams.get('state')).toBe('split');
      const exchange = await exchangeCode(t, app, to.searchParams.get('code') as string, p.verifier);
      expect(exchange.status).toBe(200);
    });

    it('the same value in the query and the body is fine', async () => {
      const params = authorizationRequest(app, pkce());
      await postQuery({ ...params, confirm: '' })
        .send(params)
        .expect(200);
    });

    it.each(['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method'])(
      'missing %s from both → 400 naming the field, nothing issued',
      async (field) => {
        const before = await codeCount();
        const params = authorizationRequest(app, pkce(), { [field]: undefined });
        const res = await postQuery({ ...params, confirm: '' }).expect(400);
        expect(Object.keys(res.body.errors)).toEqual([field]);
        expect(await codeCount()).toBe(before);
      },
    );
  });

  describe('attacks on the published form', () => {
    it('confirm for an unregistered redirect URI → 400, nothing issued, no redirect', async () => {
      const before = await codeCount();
      for (const redirect_uri of [
        'https://attacker.example/cb',
        'https://archive.example/cb/',
        'https://archive.example/cb?x=1',
        'https://archive.example.attacker.example/cb',
      ]) {
        const params = authorizationRequest(app, pkce(), { redirect_uri });
        const res = await t.http
          .post(`${OAUTH.authorizeApi}?${new URLSearchParams({ ...params, confirm: '' })}`)
          .set(bearer(loginToken))
          .expect(400);
        expect(res.body).toEqual({
          errors: ['Unregistered redirect URI: The redirect_uri is not registered for this application.'],
        });
      }
      expect(await codeCount()).toBe(before);
    });

    it('a registered redirect URI in the body, another in the query (or the reverse) → 400, nothing issued', async () => {
      const two = await createOAuthApp(t, {
        kind: 'server',
        redirectUris: ['https://two.example/a', 'https://two.example/b'],
      });
      const before = await codeCount();
      const params = authorizationRequest(two, pkce(), {
        redirect_uri: 'https://two.example/a',
        scope: 'assets:read',
      });
      for (const [inQuery, inBody] of [
        ['https://two.example/a', 'https://two.example/b'],
        ['https://two.example/b', 'https://two.example/a'],
        ['https://attacker.example/cb', 'https://two.example/a'],
      ]) {
        const res = await t.http
          .post(
            `${OAUTH.authorizeApi}?${new URLSearchParams({ ...params, redirect_uri: inQuery, confirm: '' })}`,
          )
          .set(bearer(loginToken))
          .send({ redirect_uri: inBody })
          .expect(400);
        expect(res.body).toEqual({
          errors: { redirect_uri: 'given in the query string and in the body with different values' },
        });
      }
      // another client_id, state or challenge smuggled beside the user's request: refused the same way
      for (const field of ['client_id', 'state', 'code_challenge', 'scope'] as const) {
        const res = await t.http
          .post(`${OAUTH.authorizeApi}?${new URLSearchParams({ ...params, confirm: '' })}`)
          .set(bearer(loginToken))
          .send({
            [field]: field === 'client_id' ? app.id : field === 'code_challenge' ? pkce().challenge : 'x',
          })
          .expect(400);
        expect(Object.keys(res.body.errors)).toEqual([field]);
      }
      expect(await codeCount()).toBe(before);
    });

    it('confirm with a plain PKCE challenge or without one → 400, nothing issued', async () => {
      const before = await codeCount();
      const plain = authorizationRequest(app, pkce(), { code_challenge_method: 'plain' });
      await t.http
        .post(`${OAUTH.authorizeApi}?${new URLSearchParams({ ...plain, confirm: '' })}`)
        .set(bearer(loginToken))
        .expect(400);
      const none = authorizationRequest(app, pkce(), { code_challenge: undefined });
      await t.http
        .post(`${OAUTH.authorizeApi}?${new URLSearchParams({ ...none, confirm: '' })}`)
        .set(bearer(loginToken))
        .expect(400);
      expect(await codeCount()).toBe(before);
    });

    it('confirm with an OAuth (user_impersonation), client_credentials or PAT token → 403, nothing issued', async () => {
      const impersonating = await createOAuthApp(t, { kind: 'browser', scopes: ['user_impersonation'] });
      const oauth = (await obtainTokens(t, impersonating, user)).access_token;
      const backend = await createOAuthApp(t, { kind: 'backend', scopes: ['user_impersonation'] });
      const cc = (await clientCredentials(t, backend).expect(200)).body.access_token as string;
      const patApp = await createPatApp(t);
      const pat = (
        await t.http
          .post(`/API/auth/v1/apps/${patApp.id}/token/`)
          .set(bearer(await domainAdminToken(t)))
          .expect(200)
      ).body.token as string;
      const before = await codeCount();
      for (const token of [oauth, cc, pat]) {
        const params = authorizationRequest(app, pkce());
        const q = await t.http
          .post(`${OAUTH.authorizeApi}?${new URLSearchParams({ ...params, confirm: '' })}`)
          .set(bearer(token))
          .expect(403);
        expect(q.body).toEqual(LOGIN_ONLY);
        const form = await t.http
          .post(OAUTH.authorizeApi)
          .set(bearer(token))
          .type('form')
          .send({ ...params, confirm: '' })
          .expect(403);
        expect(form.body).toEqual(LOGIN_ONLY);
        // even a malformed request is refused for the credential first
        await t.http
          .post(`${OAUTH.authorizeApi}?confirm`)
          .set(bearer(token))
          .send({ decision: 'deny' })
          .expect(403);
      }
      expect(await codeCount()).toBe(before);
    });

    it('confirm without any credential → 401; with the token in the query string → 401', async () => {
      const params = authorizationRequest(app, pkce());
      await t.http
        .post(`${OAUTH.authorizeApi}?${new URLSearchParams({ ...params, confirm: '' })}`)
        .expect(401);
      await t.http
        .post(
          `${OAUTH.authorizeApi}?${new URLSearchParams({ ...params, confirm: '', access_token: loginToken })}`,
        )
        .expect(401);
    });

    it('confirm by a user of another domain → 403, nothing issued', async () => {
      const other = await createDomain(t);
      const stranger = await createUser(t, { domainId: other.id });
      const { token } = await tokenFor(t, stranger);
      const before = await codeCount();
      const res = await t.http
        .post(
          `${OAUTH.authorizeApi}?${new URLSearchParams({ ...authorizationRequest(app, pkce()), confirm: '' })}`,
        )
        .set(bearer(token))
        .expect(403);
      expect(res.body.errors[0]).toMatch(/^Wrong domain/);
      expect(await codeCount()).toBe(before);
    });
  });

  describe('only a person’s login token may approve', () => {
    it.each([
      ['GET', 'get'],
      ['POST', 'post'],
    ] as const)('%s without a token → 401', async (_n, method) => {
      await t.http[method](OAUTH.authorizeApi)
        .query(authorizationRequest(app, pkce()))
        .send({ ...authorizationRequest(app, pkce()), decision: 'allow' })
        .expect(401);
    });

    it('an OAuth token with user_impersonation → 403', async () => {
      const impersonating = await createOAuthApp(t, { kind: 'browser', scopes: ['user_impersonation'] });
      const { access_token } = await obtainTokens(t, impersonating, user);
      const params = authorizationRequest(app, pkce());
      const get = await t.http.get(OAUTH.authorizeApi).query(params).set(bearer(access_token)).expect(403);
      expect(get.body).toEqual(LOGIN_ONLY);
      const post = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(access_token))
        .send({ ...params, decision: 'allow' })
        .expect(403);
      expect(post.body).toEqual(LOGIN_ONLY);
    });

    it('an OAuth token with narrower scopes → 403', async () => {
      const { access_token } = await obtainTokens(t, app, user);
      const res = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(access_token))
        .send({ ...authorizationRequest(app, pkce()), decision: 'allow' })
        .expect(403);
      // the route declares LOGIN only (CredentialKindStep, before roles and scopes): no OAuth token, of any
      // scope, may approve, so the answer says that rather than naming a scope that would not help
      expect(res.body).toEqual(LOGIN_ONLY);
    });

    it('a client_credentials token → 403', async () => {
      const backend = await createOAuthApp(t, { kind: 'backend', scopes: ['user_impersonation'] });
      const { access_token } = (await clientCredentials(t, backend).expect(200)).body;
      const res = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(access_token))
        .send({ ...authorizationRequest(app, pkce()), decision: 'allow' })
        .expect(403);
      expect(res.body).toEqual(LOGIN_ONLY);
    });

    it('a personal access token (service account) → 403', async () => {
      const pat = await createPatApp(t);
      const issued = await t.http
        .post(`/API/auth/v1/apps/${pat.id}/token/`)
        .set(bearer(await domainAdminToken(t)))
        .expect(200);
      const params = authorizationRequest(app, pkce());
      const get = await t.http
        .get(OAUTH.authorizeApi)
        .query(params)
        .set(bearer(issued.body.token))
        .expect(403);
      expect(get.body).toEqual(LOGIN_ONLY);
      const post = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(issued.body.token))
        .send({ ...params, decision: 'allow' })
        .expect(403);
      expect(post.body).toEqual(LOGIN_ONLY);
    });
  });

  describe('invalid requests → 400, nothing issued', () => {
    const p = pkce();
    it.each([
      [
        'unknown client',
        () => ({ client_id: '00000000-0000-4000-8000-000000000000' }),
        'Unknown application: No application has this client_id.',
      ],
      [
        'unregistered redirect URI',
        () => ({ redirect_uri: 'https://archive.example/cb/' }),
        'Unregistered redirect URI: The redirect_uri is not registered for this application.',
      ],
      // another port, PKCE plain, response_type token, a scope outside the app's:
      // authorization-request.service.spec.ts
    ])('%s', async (_n, over, message) => {
      const params = authorizationRequest(app, p, over());
      const get = await t.http.get(OAUTH.authorizeApi).query(params).set(bearer(loginToken)).expect(400);
      expect(get.body).toEqual({ errors: [message] });
      const [{ n: before }] = await t.ds.query('SELECT count(*)::int AS n FROM oauth_authorization_codes');
      const post = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(loginToken))
        .send({ ...params, decision: 'allow' })
        .expect(400);
      expect(post.body).toEqual({ errors: [message] });
      const [{ n: after }] = await t.ds.query('SELECT count(*)::int AS n FROM oauth_authorization_codes');
      expect(after).toBe(before);
    });

    it.each(['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method'])(
      'missing %s → 400 naming the field',
      async (field) => {
        const params = authorizationRequest(app, p, { [field]: undefined });
        const res = await t.http.get(OAUTH.authorizeApi).query(params).set(bearer(loginToken)).expect(400);
        expect(Object.keys(res.body.errors)).toEqual([field]);
      },
    );

    it('a service-account app → 400 (unauthorized_client)', async () => {
      const pat = await createPatApp(t);
      const params = authorizationRequest({ ...app, id: pat.id }, p);
      const res = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(loginToken))
        .send({ ...params, decision: 'allow' })
        .expect(400);
      expect(res.body.errors[0]).toMatch(/unauthorized_client/);
    });
  });

  describe('the application and the approving user must belong to the same domain', () => {
    it('a user of another domain → 403 on GET and POST, no code', async () => {
      const other = await createDomain(t);
      const stranger = await createUser(t, { domainId: other.id });
      const { token } = await tokenFor(t, stranger);
      const params = authorizationRequest(app, pkce());
      const message = {
        errors: ['Wrong domain: This application belongs to a domain you are not a member of.'],
      };
      const get = await t.http.get(OAUTH.authorizeApi).query(params).set(bearer(token)).expect(403);
      expect(get.body).toEqual(message);
      const post = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(token))
        .send({ ...params, decision: 'allow' })
        .expect(403);
      expect(post.body).toEqual(message);
    });

    it('an app of another domain → 403', async () => {
      const other = await createDomain(t);
      const foreign = await createOAuthApp(t, { kind: 'browser', domainId: other.id });
      const res = await t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(loginToken))
        .send({ ...authorizationRequest(foreign, pkce()), decision: 'allow' })
        .expect(403);
      expect(res.body.errors[0]).toMatch(/^Wrong domain/);
    });
  });
});
