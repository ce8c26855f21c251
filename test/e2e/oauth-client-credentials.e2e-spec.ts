import { decodeJwt } from 'jose';
import { createDomain, createUser } from '../factories/index.js';
import { bearer } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  ACCESS_TTL_SECONDS,
  basicAuth,
  clientCredentials,
  createOAuthApp,
  createPatApp,
  expectOAuthError,
  expectTokenResponse,
  OAUTH,
  type OAuthApp,
  tokenRequest,
} from '../utils/oauth.js';

describe('OAuth client_credentials grant', () => {
  let t: TestApp;
  let backend: OAuthApp;

  beforeAll(async () => {
    t = await createTestApp();
    backend = await createOAuthApp(t, { kind: 'backend', scopes: ['assets:read', 'collections:read'] });
  });
  afterAll(() => t.close());

  describe('success', () => {
    it('secret in the form, scope omitted → every scope of the app, no refresh_token, no-store', async () => {
      const before = Date.now();
      const res = await clientCredentials(t, backend);
      expectTokenResponse(res, { scope: 'assets:read collections:read', refresh: false });
      expect(res.body).not.toHaveProperty('refresh_token');
      // the token acts as the app's default user, under the app, and is one of the service's own JWTs
      const claims = decodeJwt(res.body.access_token);
      expect(claims).toMatchObject({ app_id: backend.id, user_id: backend.defaultUserId, sys: t.domainId });
      const check = await t.http.get(OAUTH.validate).set(bearer(res.body.token)).expect(200);
      expect(check.body).toMatchObject({
        id: claims.id,
        app_id: backend.id,
        user_id: backend.defaultUserId,
        system_domain_id: t.domainId,
      });
      const expires = new Date(check.body.expires).getTime();
      expect(expires).toBeGreaterThanOrEqual(before + ACCESS_TTL_SECONDS * 1000 - 2000);
      expect(expires).toBeLessThanOrEqual(Date.now() + ACCESS_TTL_SECONDS * 1000 + 2000);
      const [record] = await t.ds.query('SELECT kind, scopes, grant_id FROM tokens WHERE id = $1', [
        claims.id,
      ]);
      expect(record).toEqual({ kind: 'OAUTH', scopes: ['assets:read', 'collections:read'], grant_id: null });
    });

    it('HTTP Basic instead of the form', async () => {
      const res = await tokenRequest(
        t,
        { grant_type: 'client_credentials' },
        basicAuth(backend.id, backend.secret as string),
      );
      expectTokenResponse(res, { scope: 'assets:read collections:read', refresh: false });
    });

    it('HTTP Basic with the same client_id repeated in the form is fine', async () => {
      const res = await tokenRequest(
        t,
        { grant_type: 'client_credentials', client_id: backend.id },
        basicAuth(backend.id, backend.secret as string),
      );
      expect(res.status).toBe(200);
    });

    it('a subset of the app’s scopes → exactly that subset', async () => {
      const res = await clientCredentials(t, backend, { scope: 'collections:read' });
      expectTokenResponse(res, { scope: 'collections:read', refresh: false });
    });

    // repeated and extra spaces in scope are tolerated: client-credentials.grant.spec.ts
    it('an app with no scopes gets a token with an empty scope', async () => {
      const bare = await createOAuthApp(t, { kind: 'backend', scopes: [] });
      const res = await clientCredentials(t, bare);
      expectTokenResponse(res, { scope: '', refresh: false });
    });

    it('every grant is a new token; earlier ones stay valid', async () => {
      const a = (await clientCredentials(t, backend).expect(200)).body.access_token;
      const b = (await clientCredentials(t, backend).expect(200)).body.access_token;
      expect(a).not.toBe(b);
      await t.http.get(OAUTH.validate).set(bearer(a)).expect(200);
      await t.http.get(OAUTH.validate).set(bearer(b)).expect(200);
    });

    it('50 concurrent grants: each gets its own token, and every one works', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => clientCredentials(t, backend)));
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
      const tokens = results.map((r) => r.body.access_token as string);
      expect(new Set(tokens).size).toBe(50);
      const checks = await Promise.all(tokens.map((tok) => t.http.get(OAUTH.validate).set(bearer(tok))));
      expect(checks.map((r) => r.status)).toEqual(Array(50).fill(200));
    });

    it('the trailing slash is optional', async () => {
      const res = await tokenRequest(
        t,
        { grant_type: 'client_credentials', client_id: backend.id, client_secret: backend.secret as string },
        {},
        '/API/auth/v1/oauth/token',
      );
      expect(res.status).toBe(200);
    });
  });

  describe('client authentication errors → invalid_client 401 with WWW-Authenticate', () => {
    // no secret, no or a malformed client_id, another app's secret, a public client with or without a secret:
    // client-auth.service.spec.ts and client-credentials.grant.spec.ts
    it('wrong secret', async () => {
      const res = await clientCredentials(t, { ...backend, secret: 'not-the-secret' });
      expectOAuthError(res, 401, 'invalid_client', 'Client authentication failed');
    });

    it('wrong secret in Basic', async () => {
      const res = await tokenRequest(t, { grant_type: 'client_credentials' }, basicAuth(backend.id, 'nope'));
      expectOAuthError(res, 401, 'invalid_client', 'Client authentication failed');
    });

    it('unknown client_id (a UUID nobody has)', async () => {
      const res = await tokenRequest(t, {
        grant_type: 'client_credentials',
        client_id: '00000000-0000-4000-8000-000000000000',
        client_secret: backend.secret as string,
      });
      expectOAuthError(res, 401, 'invalid_client', 'Unknown client');
    });
  });

  describe('other errors', () => {
    // a secret in Basic and in the form, Basic for one client and client_id of another: client-auth.service.spec.ts
    it('a scope outside the app’s → invalid_scope whose description lists the allowed scopes', async () => {
      const res = await clientCredentials(t, backend, { scope: 'assets:read assets:delete' });
      expectOAuthError(
        res,
        400,
        'invalid_scope',
        "The requested scope is unknown or outside the application's allowed scopes: assets:read collections:read",
      );
    });

    // a scope unknown to the platform, an app without an acting user: client-credentials.grant.spec.ts
    it('the acting user set INACTIVE → invalid_grant; active again → tokens again', async () => {
      const user = await createUser(t);
      const app = await createOAuthApp(t, { kind: 'backend', defaultUserId: user.id });
      await clientCredentials(t, app).expect(200);
      await t.ds.query("UPDATE users SET status = 'INACTIVE' WHERE id = $1", [user.id]);
      expectOAuthError(
        await clientCredentials(t, app),
        400,
        'invalid_grant',
        'The acting user of this client is not active',
      );
      await t.ds.query("UPDATE users SET status = 'ACTIVE' WHERE id = $1", [user.id]);
      await clientCredentials(t, app).expect(200);
    });

    it('the app’s domain DEACTIVATED → invalid_grant (no token the guard would refuse anyway)', async () => {
      const domain = await createDomain(t);
      const app = await createOAuthApp(t, { kind: 'backend', domainId: domain.id });
      await clientCredentials(t, app).expect(200);
      await t.ds.query("UPDATE system_domains SET status = 'DEACTIVATED' WHERE id = $1", [domain.id]);
      expectOAuthError(
        await clientCredentials(t, app),
        400,
        'invalid_grant',
        'The acting user of this client is not active',
      );
    });

    it('a service-account (PAT) app → unauthorized_client', async () => {
      const pat = await createPatApp(t);
      const res = await tokenRequest(t, { grant_type: 'client_credentials', client_id: pat.id });
      expectOAuthError(
        res,
        400,
        'unauthorized_client',
        'Service-account (PAT) applications cannot use OAuth endpoints',
      );
    });

    it('the built-in sign-in app is not a client', async () => {
      const [builtin] = await t.ds.query('SELECT id FROM apps WHERE is_builtin AND system_domain_id = $1', [
        t.domainId,
      ]);
      const res = await tokenRequest(t, { grant_type: 'client_credentials', client_id: builtin.id });
      expectOAuthError(res, 401, 'invalid_client', 'Unknown client');
    });
  });

  describe('the issued token', () => {
    it('is looked up on every request: revoked through /oauth/revoke/ → the next API call is 401', async () => {
      const { access_token } = (await clientCredentials(t, backend).expect(200)).body;
      await t.http.get(OAUTH.validate).set(bearer(access_token)).expect(200);
      await tokenRequest(
        t,
        { token: access_token, client_id: backend.id, client_secret: backend.secret as string },
        {},
        OAUTH.revoke,
      ).expect(200);
      const res = await t.http.get(OAUTH.validate).set(bearer(access_token)).expect(401);
      expect(res.body).toEqual({ errors: ['Token has been revoked'] });
    });

    it('expires: once its record is past expiry → 401', async () => {
      const { access_token } = (await clientCredentials(t, backend).expect(200)).body;
      await t.ds.query("UPDATE tokens SET expires = now() - interval '1 second' WHERE id = $1", [
        decodeJwt(access_token).id,
      ]);
      const res = await t.http.get(OAUTH.validate).set(bearer(access_token)).expect(401);
      expect(res.body).toEqual({ errors: ['Token has expired'] });
    });

    it('is refused once the app is deleted', async () => {
      const app = await createOAuthApp(t, { kind: 'backend' });
      const { access_token } = (await clientCredentials(t, app).expect(200)).body;
      await t.http.get(OAUTH.validate).set(bearer(access_token)).expect(200);
      await t.ds.query('DELETE FROM apps WHERE id = $1', [app.id]);
      await t.http.get(OAUTH.validate).set(bearer(access_token)).expect(401);
      expectOAuthError(await clientCredentials(t, app), 401, 'invalid_client', 'Unknown client');
    });

    it('honours a configured access token lifetime', async () => {
      const short = await createTestApp({ ACCESS_TOKEN_TTL: '600' });
      try {
        const app = await createOAuthApp(short, { kind: 'backend' });
        const res = await clientCredentials(short, app).expect(200);
        expect(res.body.expires_in).toBe(600);
        const claims = decodeJwt(res.body.access_token);
        expect((claims.exp as number) - (claims.iat as number)).toBe(600);
      } finally {
        await short.close();
      }
    });
  });
});
