import type { UserEntity } from '../../src/users/user.entity.js';
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

  describe('GET describes the pending request', () => {
    it('app name, URL, redirect URI, scopes in plain words, state', async () => {
      const params = authorizationRequest(app, pkce(), { scope: 'assets:read', state: 'st-1' });
      const res = await t.http.get(OAUTH.authorizeApi).query(params).set(bearer(loginToken)).expect(200);
      expect(res.body).toEqual({
        client_id: app.id,
        app_name: 'Archive Sync',
        app_url: null,
        redirect_uri: 'https://archive.example/cb',
        scopes: [
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
      expect(res.body.scopes.map((s: { name: string }) => s.name)).toEqual([
        'assets:read',
        'collections:read',
      ]);
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
      expect(Object.keys(res.body)).toEqual(['redirect_to']);
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
      expect(res.body).toEqual({ errors: ['This route needs the user_impersonation scope'] });
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
      [
        'redirect URI on another port',
        () => ({ redirect_uri: 'https://archive.example:444/cb' }),
        'Unregistered redirect URI: The redirect_uri is not registered for this application.',
      ],
      [
        'method plain',
        () => ({ code_challenge_method: 'plain' }),
        'PKCE method not supported: code_challenge_method must be S256.',
      ],
      [
        'response_type token',
        () => ({ response_type: 'token' }),
        'Unsupported response type: response_type must be "code" (no implicit flow).',
      ],
      [
        'scope outside the app’s',
        () => ({ scope: 'assets:write' }),
        'Invalid scope: Not allowed for this application: assets:write. Allowed: assets:read collections:read.',
      ],
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
