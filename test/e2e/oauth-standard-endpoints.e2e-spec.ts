import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { Clock } from '../../src/base/common/clock.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  basicAuth,
  clientCredentials,
  clientForm,
  createOAuthApp,
  expectOAuthError,
  OAUTH,
  type OAuthApp,
  obtainTokens,
  refreshGrant,
  tokenRequest,
} from '../utils/oauth.js';

const BASE = 'http://localhost:3000';

describe('standard OAuth endpoints', () => {
  let t: TestApp;
  let user: UserEntity;
  let server: OAuthApp;
  let browser: OAuthApp;
  let backend: OAuthApp;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
    server = await createOAuthApp(t, { kind: 'server', scopes: ['assets:read', 'collections:read'] });
    browser = await createOAuthApp(t, { kind: 'browser', scopes: ['assets:read'] });
    backend = await createOAuthApp(t, { kind: 'backend', scopes: ['assets:read'] });
  });
  afterAll(() => t.close());
  afterEach(() => t.get(Clock).reset());

  const revoke = (app: OAuthApp, token: string, extra: Record<string, string> = {}) =>
    tokenRequest(t, { ...clientForm(app), token, ...extra }, {}, OAUTH.revoke);
  const introspect = (app: OAuthApp, token: string) =>
    tokenRequest(t, { token }, basicAuth(app.id, app.secret as string), OAUTH.introspect);
  const works = (access: string) => t.http.get(OAUTH.validate).set(bearer(access));

  describe('RFC 8414 metadata /.well-known/oauth-authorization-server', () => {
    it.each(['/.well-known/oauth-authorization-server', '/.well-known/oauth-authorization-server/'])(
      '%s',
      async (path) => {
        const res = await t.http.get(path).expect(200);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.headers['cache-control']).toBe('public, max-age=300');
        expect(res.body).toEqual({
          issuer: BASE,
          authorization_endpoint: `${BASE}/oauth/authorize`,
          token_endpoint: `${BASE}/API/auth/v1/oauth/token/`,
          jwks_uri: `${BASE}/API/auth/v1/oauth/jwks/`,
          revocation_endpoint: `${BASE}/API/auth/v1/oauth/revoke/`,
          introspection_endpoint: `${BASE}/API/auth/v1/oauth/introspect/`,
          scopes_supported: [
            'assets:read',
            'assets:write',
            'assets:delete',
            'collections:read',
            'collections:write',
            'collections:delete',
            'openid',
            'profile',
            'email',
            'user_impersonation',
          ],
          response_types_supported: ['code'],
          response_modes_supported: ['query'],
          grant_types_supported: ['client_credentials', 'authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
          revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
          introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
          authorization_response_iss_parameter_supported: true,
          service_documentation: `${BASE}/API/auth/spec/ui/`,
        });
      },
    );

    it('the scope list /API/auth/v1/apps/oauth_scopes/ describes the same scopes', async () => {
      const { token } = await tokenFor(t, user);
      const res = await t.http.get('/API/auth/v1/apps/oauth_scopes/').set(bearer(token)).expect(200);
      const meta = await t.http.get(OAUTH.metadata).expect(200);
      expect(res.body.objects.map((s: { name: string }) => s.name)).toEqual(meta.body.scopes_supported);
      for (const s of res.body.objects) expect(s.description).toEqual(expect.any(String));
    });
  });

  describe('JWKS /API/auth/v1/oauth/jwks/', () => {
    it('public ES256 keys that verify the access tokens this server issues', async () => {
      const res = await t.http.get(OAUTH.jwks).expect(200);
      expect(res.headers['cache-control']).toBe('public, max-age=300');
      expect(res.body.keys.length).toBeGreaterThanOrEqual(1);
      for (const k of res.body.keys) {
        expect(k).toEqual({
          kty: 'EC',
          crv: 'P-256',
          x: expect.any(String),
          y: expect.any(String),
          kid: expect.any(String),
          alg: 'ES256',
          use: 'sig',
        });
      }
      const { access_token } = (await clientCredentials(t, backend).expect(200)).body;
      const { payload, protectedHeader } = await jwtVerify(access_token, createLocalJWKSet(res.body));
      expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT' });
      expect(payload).toMatchObject({ app_id: backend.id, user_id: backend.defaultUserId, sys: t.domainId });
    });
  });

  describe('RFC 7009 revocation /API/auth/v1/oauth/revoke/', () => {
    it('an access token: 200 with an empty body, and the next API call with it is 401', async () => {
      const { access_token } = await obtainTokens(t, server, user);
      await works(access_token).expect(200);
      const res = await tokenRequest(
        t,
        { token: access_token },
        basicAuth(server.id, server.secret as string),
        OAUTH.revoke,
      );
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect(res.headers['cache-control']).toBe('no-store');
      const after = await works(access_token).expect(401);
      expect(after.body).toEqual({ errors: ['Token has been revoked'] });
    });

    it('a client_credentials token, secret in the form', async () => {
      const { access_token } = (await clientCredentials(t, backend).expect(200)).body;
      await revoke(backend, access_token).expect(200);
      await works(access_token).expect(401);
    });

    it('a refresh token: it and every access token of its authorization stop working', async () => {
      const first = await obtainTokens(t, server, user);
      const second = (await refreshGrant(t, server, first.refresh_token).expect(200)).body;
      await revoke(server, second.refresh_token, { token_type_hint: 'refresh_token' }).expect(200);
      expectOAuthError(await refreshGrant(t, server, second.refresh_token), 400, 'invalid_grant');
      await works(second.access_token).expect(401);
      await works(first.access_token).expect(401);
    });

    it('a public client revokes its own tokens with client_id alone', async () => {
      const tokens = await obtainTokens(t, browser, user);
      await revoke(browser, tokens.refresh_token).expect(200);
      await works(tokens.access_token).expect(401);
    });

    it('a wrong token_type_hint does not matter', async () => {
      const tokens = await obtainTokens(t, browser, user);
      await revoke(browser, tokens.access_token, { token_type_hint: 'refresh_token' }).expect(200);
      await works(tokens.access_token).expect(401);
    });

    it.each([
      ['a made-up string', () => 'not-a-token'],
      ['a JWT-looking string', () => 'aaa.bbb.ccc'],
    ])('an unknown token (%s) → 200', async (_n, token) => {
      const res = await revoke(server, token()).expect(200);
      expect(res.text).toBe('');
    });

    it('revoking twice → 200 both times', async () => {
      const { access_token } = await obtainTokens(t, server, user);
      await revoke(server, access_token).expect(200);
      await revoke(server, access_token).expect(200);
    });

    it('another client’s tokens → 200 and no effect', async () => {
      const theirs = await obtainTokens(t, browser, user);
      await revoke(server, theirs.access_token).expect(200);
      await revoke(server, theirs.refresh_token).expect(200);
      await works(theirs.access_token).expect(200);
      await refreshGrant(t, browser, theirs.refresh_token).expect(200);
    });

    it('the user’s login token → 200 and no effect (not this client’s)', async () => {
      const { token } = await tokenFor(t, user);
      await revoke(server, token).expect(200);
      await works(token).expect(200);
    });

    it('missing token → invalid_request', async () => {
      expectOAuthError(
        await tokenRequest(t, clientForm(server), {}, OAUTH.revoke),
        400,
        'invalid_request',
        'token is required',
      );
    });

    it('a confidential client with a wrong secret → invalid_client 401, nothing revoked', async () => {
      const { access_token } = await obtainTokens(t, server, user);
      expectOAuthError(await revoke({ ...server, secret: 'wrong' }, access_token), 401, 'invalid_client');
      await works(access_token).expect(200);
    });

    it('JSON → invalid_request', async () => {
      const res = await t.http.post(OAUTH.revoke).send({ ...clientForm(server), token: 'x' });
      expectOAuthError(res, 400, 'invalid_request');
    });
  });

  describe('RFC 7662 introspection /API/auth/v1/oauth/introspect/', () => {
    it('an active access token → its claims', async () => {
      const tokens = await obtainTokens(t, browser, user);
      const claims = decodeJwt(tokens.access_token);
      const res = await introspect(server, tokens.access_token).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        active: true,
        token_type: 'Bearer',
        scope: 'assets:read',
        client_id: browser.id,
        sub: user.id,
        username: user.email,
        exp: claims.exp,
        iat: claims.iat,
        iss: BASE,
        jti: claims.id,
        sys: t.domainId,
        token_kind: 'OAUTH',
      });
    });

    it('an active refresh token → its claims', async () => {
      const tokens = await obtainTokens(t, server, user, { scope: 'collections:read' });
      const res = await tokenRequest(
        t,
        { ...clientForm(server), token: tokens.refresh_token },
        {},
        OAUTH.introspect,
      ).expect(200);
      expect(res.body).toEqual({
        active: true,
        token_type: 'refresh_token',
        scope: 'collections:read',
        client_id: server.id,
        sub: user.id,
        exp: expect.any(Number),
        iat: expect.any(Number),
        iss: BASE,
      });
      expect(res.body.exp - res.body.iat).toBeGreaterThanOrEqual(60 * 24 * 3600 - 2);
      expect(res.body.exp - res.body.iat).toBeLessThanOrEqual(60 * 24 * 3600 + 2);
    });

    describe('inactive', () => {
      it('a revoked access token', async () => {
        const { access_token } = await obtainTokens(t, server, user);
        await revoke(server, access_token).expect(200);
        expect((await introspect(server, access_token).expect(200)).body).toEqual({ active: false });
      });

      it('an expired access token', async () => {
        const { access_token } = await obtainTokens(t, server, user);
        await t.ds.query("UPDATE tokens SET expires = now() - interval '1 second' WHERE id = $1", [
          decodeJwt(access_token).id,
        ]);
        expect((await introspect(server, access_token).expect(200)).body).toEqual({ active: false });
      });

      it('an access token whose user became INACTIVE', async () => {
        const u = await createUser(t);
        const tokens = await obtainTokens(t, server, u);
        await t.ds.query("UPDATE users SET status = 'INACTIVE' WHERE id = $1", [u.id]);
        expect((await introspect(server, tokens.access_token).expect(200)).body).toEqual({ active: false });
        expect((await introspect(server, tokens.refresh_token).expect(200)).body).toEqual({ active: false });
      });

      it('a used refresh token', async () => {
        const tokens = await obtainTokens(t, server, user);
        await refreshGrant(t, server, tokens.refresh_token).expect(200);
        expect((await introspect(server, tokens.refresh_token).expect(200)).body).toEqual({ active: false });
      });

      it('a revoked refresh token', async () => {
        const tokens = await obtainTokens(t, server, user);
        await t.http.delete(OAUTH.refreshRevoke).send({ refresh_token: tokens.refresh_token }).expect(200);
        expect((await introspect(server, tokens.refresh_token).expect(200)).body).toEqual({ active: false });
      });

      it('an expired refresh token (60 days later)', async () => {
        const tokens = await obtainTokens(t, server, user);
        t.get(Clock).advance(60 * 24 * 3600 * 1000 + 1000);
        expect((await introspect(server, tokens.refresh_token).expect(200)).body).toEqual({ active: false });
      });

      it('tokens of another domain', async () => {
        const other = await createDomain(t);
        const stranger = await createUser(t, { domainId: other.id });
        const foreignApp = await createOAuthApp(t, { kind: 'server', domainId: other.id });
        const foreign = await obtainTokens(t, foreignApp, stranger);
        expect((await introspect(server, foreign.access_token).expect(200)).body).toEqual({ active: false });
        expect((await introspect(server, foreign.refresh_token).expect(200)).body).toEqual({ active: false });
        // while that domain's own client sees them
        expect((await introspect(foreignApp, foreign.access_token).expect(200)).body.active).toBe(true);
      });

      it('garbage', async () => {
        expect((await introspect(server, 'garbage').expect(200)).body).toEqual({ active: false });
      });
    });

    it('a public client → invalid_client 401', async () => {
      const tokens = await obtainTokens(t, browser, user);
      const res = await tokenRequest(
        t,
        { client_id: browser.id, token: tokens.access_token },
        {},
        OAUTH.introspect,
      );
      expectOAuthError(res, 401, 'invalid_client', 'Introspection is for confidential clients');
    });

    it('a wrong secret → invalid_client 401', async () => {
      const res = await introspect({ ...server, secret: 'nope' }, 'x');
      expectOAuthError(res, 401, 'invalid_client', 'Client authentication failed');
    });

    it('missing token → invalid_request', async () => {
      const res = await tokenRequest(t, {}, basicAuth(server.id, server.secret as string), OAUTH.introspect);
      expectOAuthError(res, 400, 'invalid_request', 'token is required');
    });
  });

  describe('DELETE /API/auth/v1/refresh/token/', () => {
    it('revokes the refresh token and its authorization: 200 with an empty body', async () => {
      const tokens = await obtainTokens(t, browser, user);
      const res = await t.http
        .delete(OAUTH.refreshRevoke)
        .send({ refresh_token: tokens.refresh_token })
        .expect(200);
      expect(res.text).toBe('');
      expectOAuthError(await refreshGrant(t, browser, tokens.refresh_token), 400, 'invalid_grant');
      await works(tokens.access_token).expect(401);
    });

    it('without the trailing slash', async () => {
      const tokens = await obtainTokens(t, browser, user);
      await t.http
        .delete('/API/auth/v1/refresh/token')
        .send({ refresh_token: tokens.refresh_token })
        .expect(200);
      await refreshGrant(t, browser, tokens.refresh_token).expect(400);
    });

    it('an unknown refresh token → 200 as well', async () => {
      await t.http.delete(OAUTH.refreshRevoke).send({ refresh_token: 'unknown' }).expect(200);
    });

    it('no refresh_token → 400 naming the field', async () => {
      const res = await t.http.delete(OAUTH.refreshRevoke).send({}).expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['refresh_token']);
    });
  });

  // Last: on PGlite every app of a process shares one in-memory database, and closing this second app closes it.
  describe('metadata under another PUBLIC_BASE_URL', () => {
    it('the issuer follows PUBLIC_BASE_URL, and every endpoint it names answers', async () => {
      const other = await createTestApp({ PUBLIC_BASE_URL: 'https://auth.example.com/' });
      try {
        const res = await other.http.get(OAUTH.metadata).expect(200);
        expect(res.body.issuer).toBe('https://auth.example.com');
        expect(res.body.token_endpoint).toBe('https://auth.example.com/API/auth/v1/oauth/token/');
        for (const key of ['jwks_uri', 'service_documentation', 'authorization_endpoint']) {
          const path = new URL(res.body[key]).pathname;
          const answer = await other.http.get(path);
          expect({ key, status: answer.status }).toEqual({
            key,
            status: key === 'authorization_endpoint' ? 400 : 200,
          });
        }
      } finally {
        await other.close();
      }
    });
  });
});
