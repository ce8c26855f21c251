import type { Response } from 'supertest';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  authorizeViaApi,
  clientCredentials,
  clientForm,
  createOAuthApp,
  domainAdminToken,
  OAUTH,
  type OAuthApp,
  obtainTokens,
  refreshGrant,
  tokenRequest,
} from '../utils/oauth.js';

const SPA = 'https://spa.example';
const OTHER_SPA = 'https://other-spa.example:8443';
const STRANGER = 'https://evil.example';

function expectAllowed(res: Response, origin: string) {
  expect(res.headers['access-control-allow-origin']).toBe(origin);
  expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  expect(res.headers.vary).toMatch(/\bOrigin\b/);
}

function expectRefused(res: Response) {
  expect(res.headers['access-control-allow-origin']).toBeUndefined();
  expect(res.headers['access-control-allow-methods']).toBeUndefined();
}

/** Browser (public) apps' allowed_origins are the only cross-origin origins answered; everything else is refused. */
describe('CORS for browser apps', () => {
  let t: TestApp;
  let user: UserEntity;
  let spa: OAuthApp;
  let server: OAuthApp;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
    spa = await createOAuthApp(t, {
      kind: 'browser',
      origins: [SPA],
      scopes: ['assets:read', 'user_impersonation'],
    });
    await createOAuthApp(t, { kind: 'browser', origins: [OTHER_SPA] }); // lists the other origin
    server = await createOAuthApp(t, { kind: 'server' });
  });
  afterAll(() => t.close());

  const preflight = (path: string, origin: string, method = 'POST') =>
    t.http.options(path).set({
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'content-type',
    });

  it('discovery and JWKS are public documents any origin may read', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/API/auth/v1/oauth/jwks/']) {
      const res = await t.http.get(path).set('Origin', 'https://any.example').expect(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    }
  });

  describe('preflight', () => {
    it.each([OAUTH.token, OAUTH.revoke, OAUTH.validate, '/API/users/v1/users/current/'])(
      'an origin a public app lists → 204 on %s',
      async (path) => {
        const res = await preflight(path, SPA).expect(204);
        expectAllowed(res, SPA);
        expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE');
        expect(res.headers['access-control-allow-headers']).toBe(
          'Authorization, Content-Type, App-ID, Auth-Token, X-Request-Id',
        );
        expect(res.headers['access-control-max-age']).toBe('600');
      },
    );

    it('an origin with a port, exactly as listed', async () => {
      expectAllowed(await preflight(OAUTH.token, OTHER_SPA).expect(204), OTHER_SPA);
    });

    it.each([
      ['an unknown origin', STRANGER],
      ['a listed host on another scheme', 'http://spa.example'],
      ['a listed host on another port', 'https://spa.example:8443'],
      ['a subdomain of a listed host', 'https://evil.spa.example'],
      ['the literal null origin', 'null'],
    ])('%s → 403', async (_n, origin) => {
      const res = await preflight(OAUTH.token, origin).expect(403);
      expectRefused(res);
      expect(res.body).toEqual({ errors: ['Origin not allowed'] });
      expect(res.headers.vary).toMatch(/\bOrigin\b/);
    });

    it('an app registered just now is allowed at once (the origin cache does not hide it)', async () => {
      await preflight(OAUTH.token, SPA).expect(204); // the list of known origins is warm
      const fresh = 'https://fresh-spa.example';
      await preflight(OAUTH.token, fresh).expect(403);
      await createOAuthApp(t, { kind: 'browser', origins: [fresh] });
      expectAllowed(await preflight(OAUTH.token, fresh).expect(204), fresh);
    });
  });

  describe('token endpoint', () => {
    it('a public client from its own origin → Access-Control-Allow-Origin for it, on success', async () => {
      const { code, verifier } = await authorizeViaApi(t, spa, user);
      const res = await tokenRequest(
        t,
        {
          grant_type: 'authorization_code',
          client_id: spa.id,
          code,
          code_verifier: verifier,
          redirect_uri: spa.redirectUri,
        },
        { Origin: SPA },
      ).expect(200);
      expectAllowed(res, SPA);
      expect(res.headers['access-control-expose-headers']).toBe(
        'RateLimit-Remaining, Retry-After, X-Request-Id, WWW-Authenticate',
      );
      // and on refresh
      expectAllowed(await refreshGrant(t, spa, res.body.refresh_token).set({ Origin: SPA }).expect(200), SPA);
    });

    it('… and on its errors, so the browser app can read them', async () => {
      const res = await refreshGrant(t, spa, 'unknown').set({ Origin: SPA }).expect(400);
      expect(res.body.error).toBe('invalid_grant');
      expectAllowed(res, SPA);
    });

    it('a public client from another app’s origin → no Access-Control-Allow-Origin', async () => {
      const res = await refreshGrant(t, spa, 'unknown').set({ Origin: OTHER_SPA });
      expect(res.status).toBe(400);
      expectRefused(res);
      expect(res.headers.vary).toMatch(/\bOrigin\b/);
    });

    it('a public client from an unknown origin → none', async () => {
      expectRefused(await refreshGrant(t, spa, 'unknown').set({ Origin: STRANGER }));
    });

    it('an unknown client → none', async () => {
      const res = await tokenRequest(
        t,
        {
          grant_type: 'refresh_token',
          client_id: '00000000-0000-4000-8000-000000000000',
          refresh_token: 'x',
        },
        { Origin: SPA },
      ).expect(401);
      expectRefused(res);
    });

    it('confidential apps never get one', async () => {
      const backend = await createOAuthApp(t, { kind: 'backend' });
      expectRefused(await clientCredentials(t, backend).set({ Origin: SPA }).expect(200));
      const tokens = await obtainTokens(t, server, user);
      expectRefused(await refreshGrant(t, server, tokens.refresh_token).set({ Origin: SPA }).expect(200));
    });

    it('revocation answers the public client’s own origin', async () => {
      const tokens = await obtainTokens(t, spa, user);
      const res = await tokenRequest(
        t,
        { ...clientForm(spa), token: tokens.access_token },
        { Origin: SPA },
        OAUTH.revoke,
      ).expect(200);
      expectAllowed(res, SPA);
    });

    it('a confidential app cannot list origins at all', async () => {
      const res = await t.http
        .post('/API/auth/v1/apps/')
        .set(bearer(await domainAdminToken(t)))
        .send({
          name: 'nope',
          type: 'OAUTH',
          oauth_client_type: 'confidential',
          redirect_uris: ['https://x.example/cb'],
          allowed_origins: [SPA],
        })
        .expect(400);
      expect(res.body).toEqual({
        errors: { allowed_origins: 'applies to public (browser or device) apps only' },
      });
    });
  });

  describe('API calls made with a token', () => {
    it('a browser app’s token from its own origin → Access-Control-Allow-Origin', async () => {
      const { access_token } = await obtainTokens(t, spa, user);
      const res = await t.http
        .get(OAUTH.validate)
        .set({ ...bearer(access_token), Origin: SPA })
        .expect(200);
      expectAllowed(res, SPA);
      const me = await t.http
        .get('/API/users/v1/users/current/')
        .set({ ...bearer(access_token), Origin: SPA })
        .expect(200);
      expectAllowed(me, SPA);
    });

    it('… but not from another app’s origin or an unknown one', async () => {
      const { access_token } = await obtainTokens(t, spa, user);
      for (const origin of [OTHER_SPA, STRANGER]) {
        const res = await t.http
          .get(OAUTH.validate)
          .set({ ...bearer(access_token), Origin: origin })
          .expect(200);
        expectRefused(res);
        expect(res.headers.vary).toMatch(/\bOrigin\b/);
      }
    });

    it('a confidential app’s token → never', async () => {
      const { access_token } = await obtainTokens(t, server, user);
      expectRefused(
        await t.http
          .get(OAUTH.validate)
          .set({ ...bearer(access_token), Origin: SPA })
          .expect(200),
      );
    });

    it('a login token or a PAT → never', async () => {
      const { token } = await tokenFor(t, user);
      expectRefused(
        await t.http
          .get(OAUTH.validate)
          .set({ ...bearer(token), Origin: SPA })
          .expect(200),
      );
    });

    it('an invalid token → never', async () => {
      expectRefused(
        await t.http
          .get(OAUTH.validate)
          .set({ ...bearer('nope'), Origin: SPA })
          .expect(401),
      );
    });

    it('the origin is the app’s current list: removed from the app, refused on the next call', async () => {
      const origin = 'https://shrinking.example';
      const app = await createOAuthApp(t, { kind: 'browser', origins: [origin] });
      const { access_token } = await obtainTokens(t, app, user);
      expectAllowed(
        await t.http
          .get(OAUTH.validate)
          .set({ ...bearer(access_token), Origin: origin })
          .expect(200),
        origin,
      );
      await t.http
        .patch(`/API/auth/v1/apps/${app.id}/`)
        .set(bearer(await domainAdminToken(t)))
        .send({ allowed_origins: [] })
        .expect(200);
      expectRefused(
        await t.http
          .get(OAUTH.validate)
          .set({ ...bearer(access_token), Origin: origin })
          .expect(200),
      );
    });
  });
});
