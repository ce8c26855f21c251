import { createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  authorizationRequest,
  basicAuth,
  clientCredentials,
  createOAuthApp,
  createPatApp,
  expectConsentHeaders,
  expectOAuthError,
  expectTokenResponse,
  OAUTH,
  type OAuthApp,
  pkce,
  tokenRequest,
} from '../utils/oauth.js';

const PAT_REFUSED = 'Service-account (PAT) applications cannot use OAuth endpoints';

/** The pipeline every grant goes through: form, parameters, grant type, client authentication. */
describe('OAuth token endpoint pipeline', () => {
  let t: TestApp;
  let backend: OAuthApp;
  let browser: OAuthApp;

  beforeAll(async () => {
    t = await createTestApp();
    backend = await createOAuthApp(t, { kind: 'backend', scopes: ['assets:read'] });
    browser = await createOAuthApp(t, { kind: 'browser', scopes: ['assets:read'] });
  });
  afterAll(() => t.close());

  const ccForm = () => ({
    grant_type: 'client_credentials',
    client_id: backend.id,
    client_secret: backend.secret as string,
  });

  describe('bodies the parsers refuse still answer in RFC 6749 form', () => {
    it.each(['token', 'revoke', 'introspect'])(
      '%s: malformed JSON → 400 invalid_request',
      async (endpoint) => {
        const res = await t.http
          .post(`/API/auth/v1/oauth/${endpoint}/`)
          .set('Content-Type', 'application/json')
          .send('{"grant_type":');
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'invalid_request', error_description: 'Malformed JSON body' });
        expect(res.headers['cache-control']).toBe('no-store');
      },
    );

    it('a body over 100 kB → 413 invalid_request', async () => {
      const res = await t.http
        .post('/API/auth/v1/oauth/token')
        .type('form')
        .send({ ...ccForm(), scope: 'x'.repeat(200_000) });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });

    it('elsewhere the same refusal keeps the platform’s form', async () => {
      const res = await t.http
        .post('/API/auth/v1/auth/simple/login/')
        .set('Content-Type', 'application/json')
        .send('{"email":');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errors: ['Malformed JSON body'] });
    });
  });

  describe('form encoding only', () => {
    it('JSON → invalid_request', async () => {
      const res = await t.http.post(OAUTH.token).send(ccForm());
      expectOAuthError(
        res,
        400,
        'invalid_request',
        'The request body must be application/x-www-form-urlencoded',
      );
    });

    it('text/plain carrying a form-looking body → invalid_request', async () => {
      const res = await t.http
        .post(OAUTH.token)
        .set('Content-Type', 'text/plain')
        .send(new URLSearchParams(ccForm()).toString());
      expectOAuthError(
        res,
        400,
        'invalid_request',
        'The request body must be application/x-www-form-urlencoded',
      );
    });

    it('no body at all → invalid_request', async () => {
      const res = await t.http.post(OAUTH.token);
      expectOAuthError(
        res,
        400,
        'invalid_request',
        'The request body must be application/x-www-form-urlencoded',
      );
    });

    it('form with a charset parameter is fine', async () => {
      const res = await t.http
        .post(OAUTH.token)
        .set('Content-Type', 'application/x-www-form-urlencoded; charset=UTF-8')
        .send(new URLSearchParams(ccForm()).toString());
      expectTokenResponse(res, { scope: 'assets:read', refresh: false });
    });

    it('GET on the token endpoint → 405 with Allow: POST', async () => {
      const res = await t.http.get(OAUTH.token).expect(405);
      expect(res.headers.allow).toBe('POST');
    });
  });

  describe('parameters', () => {
    it.each(['grant_type', 'client_id', 'client_secret', 'scope'])(
      '%s repeated → invalid_request',
      async (name) => {
        const body = new URLSearchParams({ ...ccForm(), scope: 'assets:read' });
        body.append(name, body.get(name) as string);
        const res = await t.http.post(OAUTH.token).type('form').send(body.toString());
        expectOAuthError(res, 400, 'invalid_request', `Parameter ${name} is repeated`);
      },
    );

    it('unknown parameters are ignored (RFC 6749 §3.2)', async () => {
      const res = await tokenRequest(t, { ...ccForm(), foo: 'bar', code: 'irrelevant', refresh_token: 'x' });
      expectTokenResponse(res, { scope: 'assets:read', refresh: false });
    });

    it('empty values count as absent (RFC 6749 §3.1)', async () => {
      const res = await tokenRequest(t, { ...ccForm(), scope: '' });
      expectTokenResponse(res, { scope: 'assets:read', refresh: false });
    });
  });

  describe('grant_type', () => {
    it.each([
      'password',
      'implicit',
      'token',
      'urn:ietf:params:oauth:grant-type:device_code',
      'CLIENT_CREDENTIALS',
    ])('%s → unsupported_grant_type', async (grantType) => {
      const res = await tokenRequest(t, { ...ccForm(), grant_type: grantType });
      expectOAuthError(
        res,
        400,
        'unsupported_grant_type',
        'grant_type must be one of client_credentials, authorization_code, refresh_token (implicit and password grants are not offered)',
      );
    });

    // missing → invalid_request: token-endpoint.service.spec.ts
    it('client authentication comes first: an unsupported grant with a bad secret → invalid_client', async () => {
      const res = await tokenRequest(t, { ...ccForm(), client_secret: 'wrong', grant_type: 'password' });
      expectOAuthError(res, 401, 'invalid_client', 'Client authentication failed');
    });
  });

  describe('client authentication', () => {
    it('Basic scheme name is case-insensitive', async () => {
      const [, value] = basicAuth(backend.id, backend.secret as string).Authorization.split(' ');
      const res = await tokenRequest(
        t,
        { grant_type: 'client_credentials' },
        { Authorization: `basic ${value}` },
      );
      expect(res.status).toBe(200);
    });

    it('Basic credentials are form-urlencoded before base64 (RFC 6749 §2.3.1)', async () => {
      const encodedId = backend.id.replace(/-/g, '%2D');
      const header = `Basic ${Buffer.from(`${encodedId}:${backend.secret}`).toString('base64')}`;
      const res = await tokenRequest(t, { grant_type: 'client_credentials' }, { Authorization: header });
      expect(res.status).toBe(200);
    });

    it('secret in Basic and in the form → invalid_request, even when both are right', async () => {
      const res = await tokenRequest(t, ccForm(), basicAuth(backend.id, backend.secret as string));
      expectOAuthError(res, 400, 'invalid_request');
    });

    it('a public client names itself with client_id and sends no secret', async () => {
      const res = await tokenRequest(t, {
        grant_type: 'refresh_token',
        client_id: browser.id,
        refresh_token: 'x',
      });
      expectOAuthError(res, 400, 'invalid_grant');
    });

    // malformed Basic, an empty secret, a Bearer token, a public client's empty Basic secret:
    // client-auth.service.spec.ts
  });

  describe('service-account (PAT) apps → unauthorized_client on every OAuth endpoint', () => {
    let pat: { id: string; userId: string };
    beforeAll(async () => {
      pat = await createPatApp(t);
    });

    it.each([
      ['client_credentials', {}],
      [
        'authorization_code',
        { code: 'c', code_verifier: 'A'.repeat(43), redirect_uri: 'https://x.example/cb' },
      ],
      ['refresh_token', { refresh_token: 'r' }],
      ['password', { username: 'u', password: 'p' }],
    ])('token endpoint, %s', async (grantType, extra) => {
      const res = await tokenRequest(t, { grant_type: grantType, client_id: pat.id, ...extra });
      expectOAuthError(res, 400, 'unauthorized_client', PAT_REFUSED);
    });

    it('token endpoint, with HTTP Basic', async () => {
      const res = await tokenRequest(t, { grant_type: 'client_credentials' }, basicAuth(pat.id, 'anything'));
      expectOAuthError(res, 400, 'unauthorized_client', PAT_REFUSED);
    });

    it('revocation', async () => {
      const res = await tokenRequest(t, { client_id: pat.id, token: 'x' }, {}, OAUTH.revoke);
      expectOAuthError(res, 400, 'unauthorized_client', PAT_REFUSED);
    });

    it('introspection', async () => {
      const res = await tokenRequest(t, { client_id: pat.id, token: 'x' }, {}, OAUTH.introspect);
      expectOAuthError(res, 400, 'unauthorized_client', PAT_REFUSED);
    });

    it('consent page: an error on the page, never a redirect', async () => {
      const app = { id: pat.id, redirectUri: 'https://x.example/cb' } as OAuthApp;
      const res = await t.http.get(OAUTH.consent).query(authorizationRequest(app, pkce())).expect(400);
      expectConsentHeaders(res);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('Not an OAuth application');
      expect(res.text).toContain('unauthorized_client');
    });

    it('authorize API', async () => {
      const { token } = await tokenFor(t, await createUser(t));
      const app = { id: pat.id, redirectUri: 'https://x.example/cb' } as OAuthApp;
      const res = await t.http
        .get(OAUTH.authorizeApi)
        .query(authorizationRequest(app, pkce()))
        .set(bearer(token))
        .expect(400);
      expect(res.body).toEqual({
        errors: [
          'Not an OAuth application: Service-account (PAT) applications cannot use OAuth (unauthorized_client).',
        ],
      });
    });
  });

  describe('the database unreachable → 503 temporarily_unavailable with Retry-After', () => {
    let down: TestApp;
    let app: OAuthApp;

    beforeAll(async () => {
      down = await createTestApp();
      app = await createOAuthApp(down, { kind: 'backend' });
      await clientCredentials(down, app).expect(200);
      await down.ds.destroy();
    });
    afterAll(async () => {
      await down.close().catch(() => undefined);
    });

    it.each([
      ['token', OAUTH.token, { grant_type: 'client_credentials' }],
      ['revoke', OAUTH.revoke, { token: 'x' }],
      ['introspect', OAUTH.introspect, { token: 'x' }],
    ])('%s endpoint', async (_n, path, form) => {
      const res = await tokenRequest(
        down,
        { ...form, client_id: app.id, client_secret: app.secret as string },
        {},
        path,
      );
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        error: 'temporarily_unavailable',
        error_description: 'The service is temporarily unavailable; retry shortly',
      });
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });
});
