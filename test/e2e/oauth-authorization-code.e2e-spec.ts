import { decodeJwt } from 'jose';
import { Clock } from '../../src/base/common/clock.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createUser } from '../factories/index.js';
import { bearer } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  ACCESS_TTL_SECONDS,
  authorizeViaApi,
  basicAuth,
  createOAuthApp,
  exchangeCode,
  expectOAuthError,
  expectTokenResponse,
  OAUTH,
  type OAuthApp,
  pkce,
  REFRESH_TTL_SECONDS,
  refreshGrant,
  refreshRecord,
  tokenRequest,
} from '../utils/oauth.js';

const INVALID_CODE = 'The authorization code is invalid, expired or already used';

describe('OAuth authorization_code grant (PKCE)', () => {
  let t: TestApp;
  let user: UserEntity;
  let browser: OAuthApp;
  let server: OAuthApp;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t, { roles: ['can_read_apps'] });
    browser = await createOAuthApp(t, {
      kind: 'browser',
      scopes: ['assets:read', 'collections:read'],
      redirectUris: ['https://spa.example/callback', 'http://localhost:8080/cb'],
      origins: ['https://spa.example'],
    });
    server = await createOAuthApp(t, {
      kind: 'server',
      scopes: ['assets:read', 'assets:write', 'user_impersonation'],
      redirectUris: ['https://server.example/oauth/cb'],
    });
  });
  afterAll(() => t.close());
  afterEach(() => t.get(Clock).reset());

  describe('success', () => {
    it('public client: code + verifier + redirect_uri, no secret → access and refresh tokens', async () => {
      const before = Date.now();
      const { code, verifier } = await authorizeViaApi(t, browser, user);
      const res = await exchangeCode(t, browser, code, verifier);
      expectTokenResponse(res, { scope: 'assets:read collections:read', refresh: true });
      // the token acts as the approving user, for this app, in the app's domain
      const claims = decodeJwt(res.body.access_token);
      expect(claims).toMatchObject({ app_id: browser.id, user_id: user.id, sys: t.domainId });
      expect((claims.exp as number) - (claims.iat as number)).toBe(ACCESS_TTL_SECONDS);
      const check = await t.http.get(OAUTH.validate).set(bearer(res.body.access_token)).expect(200);
      expect(check.body).toMatchObject({ app_id: browser.id, user_id: user.id });
      // access token 12 h and refresh token 60 days, as stored
      const [access] = await t.ds.query('SELECT kind, scopes, expires, grant_id FROM tokens WHERE id = $1', [
        claims.id,
      ]);
      expect(access.kind).toBe('OAUTH');
      expect(access.scopes).toEqual(['assets:read', 'collections:read']);
      expect(new Date(access.expires).getTime()).toBeGreaterThanOrEqual(
        before + ACCESS_TTL_SECONDS * 1000 - 2000,
      );
      expect(new Date(access.expires).getTime()).toBeLessThanOrEqual(
        Date.now() + ACCESS_TTL_SECONDS * 1000 + 2000,
      );
      const refresh = await refreshRecord(t, res.body.refresh_token);
      expect(refresh.grant_id).toBe(access.grant_id);
      expect(refresh.scopes).toEqual(['assets:read', 'collections:read']);
      expect(refresh.used_at).toBeNull();
      expect(new Date(refresh.expires).getTime()).toBeGreaterThanOrEqual(
        before + REFRESH_TTL_SECONDS * 1000 - 2000,
      );
      expect(new Date(refresh.expires).getTime()).toBeLessThanOrEqual(
        Date.now() + REFRESH_TTL_SECONDS * 1000 + 2000,
      );
    });

    it('confidential client with client_secret in the form', async () => {
      const { code, verifier } = await authorizeViaApi(t, server, user, { scope: 'assets:read' });
      const res = await exchangeCode(t, server, code, verifier);
      expectTokenResponse(res, { scope: 'assets:read', refresh: true });
    });

    it('confidential client with HTTP Basic', async () => {
      const { code, verifier } = await authorizeViaApi(t, server, user);
      const res = await tokenRequest(
        t,
        { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: server.redirectUri },
        basicAuth(server.id, server.secret as string),
      );
      expectTokenResponse(res, { scope: 'assets:read assets:write user_impersonation', refresh: true });
    });

    it('the second registered redirect URI works when it is the one that was authorized', async () => {
      const redirectUri = 'http://localhost:8080/cb';
      const { code, verifier } = await authorizeViaApi(t, browser, user, { redirectUri });
      const res = await exchangeCode(t, browser, code, verifier, { redirect_uri: redirectUri });
      expect(res.status).toBe(200);
    });

    it('verifiers of 43 and of 128 unreserved characters are accepted', async () => {
      for (const v of ['A'.repeat(43), `${'a-._~'.repeat(25)}012`]) {
        expect(v.length === 43 || v.length === 128).toBe(true);
        const { code } = await authorizeViaApi(t, browser, user, { pkce: pkce(v) });
        const res = await exchangeCode(t, browser, code, v);
        expect(res.status).toBe(200);
      }
    });

    it('a scope sent with the exchange is ignored: the token carries what was authorized', async () => {
      const { code, verifier } = await authorizeViaApi(t, browser, user, { scope: 'assets:read' });
      const res = await exchangeCode(t, browser, code, verifier, { scope: 'assets:read collections:read' });
      expectTokenResponse(res, { scope: 'assets:read', refresh: true });
    });

    it('a code is still good at 59 seconds', async () => {
      const { code, verifier } = await authorizeViaApi(t, browser, user);
      t.get(Clock).advance(59_000);
      expect((await exchangeCode(t, browser, code, verifier)).status).toBe(200);
    });
  });

  describe('the code: single use, 60 seconds', () => {
    it('used twice → invalid_grant, and the tokens of the first exchange are revoked', async () => {
      const { code, verifier } = await authorizeViaApi(t, browser, user);
      const first = await exchangeCode(t, browser, code, verifier).expect(200);
      await t.http.get(OAUTH.validate).set(bearer(first.body.access_token)).expect(200);

      const replay = await exchangeCode(t, browser, code, verifier);
      expectOAuthError(replay, 400, 'invalid_grant', INVALID_CODE);

      const res = await t.http.get(OAUTH.validate).set(bearer(first.body.access_token)).expect(401);
      expect(res.body).toEqual({ errors: ['Token has been revoked'] });
      expectOAuthError(await refreshGrant(t, browser, first.body.refresh_token), 400, 'invalid_grant');
    });

    it('race: 20 concurrent exchanges of one code → exactly one 200, the rest invalid_grant', async () => {
      const { code, verifier } = await authorizeViaApi(t, browser, user);
      const results = await Promise.all(
        Array.from({ length: 20 }, () => exchangeCode(t, browser, code, verifier)),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200))
        expectOAuthError(r, 400, 'invalid_grant', INVALID_CODE);
      const [{ n }] = await t.ds.query(
        `SELECT count(*)::int AS n FROM oauth_refresh_tokens r JOIN oauth_authorization_codes c ON c.grant_id = r.grant_id
         WHERE c.code_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
        [code],
      );
      expect(n).toBe(1);
    });

    it('after 61 seconds → invalid_grant (expired)', async () => {
      const { code, verifier } = await authorizeViaApi(t, browser, user);
      t.get(Clock).advance(61_000);
      expectOAuthError(
        await exchangeCode(t, browser, code, verifier),
        400,
        'invalid_grant',
        'The authorization code has expired',
      );
      t.get(Clock).reset();
      // and it is spent: no second chance
      expectOAuthError(await exchangeCode(t, browser, code, verifier), 400, 'invalid_grant', INVALID_CODE);
    });

    it('an unknown code → invalid_grant', async () => {
      const res = await exchangeCode(t, browser, 'made-up-code', pkce().verifier);
      expectOAuthError(res, 400, 'invalid_grant', INVALID_CODE);
    });

    it('another client’s code → invalid_grant; the code stays usable by its own client', async () => {
      const other = await createOAuthApp(t, { kind: 'browser', redirectUris: [browser.redirectUri] });
      const { code, verifier } = await authorizeViaApi(t, browser, user);
      expectOAuthError(await exchangeCode(t, other, code, verifier), 400, 'invalid_grant', INVALID_CODE);
      expect((await exchangeCode(t, browser, code, verifier)).status).toBe(200);
    });

    it('a failed exchange spends the code (no guessing the verifier)', async () => {
      const { code, verifier } = await authorizeViaApi(t, browser, user);
      expectOAuthError(await exchangeCode(t, browser, code, pkce().verifier), 400, 'invalid_grant');
      expectOAuthError(await exchangeCode(t, browser, code, verifier), 400, 'invalid_grant', INVALID_CODE);
    });
  });

  describe('redirect_uri must be identical', () => {
    // every other way of differing, and a missing one: authorization-code.grant.spec.ts
    it('another registered URI → invalid_grant', async () => {
      const { code, verifier } = await authorizeViaApi(t, browser, user);
      const res = await exchangeCode(t, browser, code, verifier, {
        redirect_uri: 'http://localhost:8080/cb',
      });
      expectOAuthError(res, 400, 'invalid_grant', 'redirect_uri does not match the authorization request');
    });
  });

  describe('PKCE verifier', () => {
    it('wrong verifier → invalid_grant', async () => {
      const { code } = await authorizeViaApi(t, browser, user);
      const res = await exchangeCode(t, browser, code, pkce().verifier);
      expectOAuthError(res, 400, 'invalid_grant', 'code_verifier does not match');
    });

    // the other shapes, the challenge sent as the verifier, a missing verifier or code:
    // authorization-code.grant.spec.ts
    it('a verifier of 42 characters → invalid_request, and the code is not spent', async () => {
      const p = pkce();
      const { code } = await authorizeViaApi(t, browser, user, { pkce: p });
      const res = await exchangeCode(t, browser, code, 'A'.repeat(42));
      expectOAuthError(res, 400, 'invalid_request', 'code_verifier must be 43 to 128 unreserved characters');
      expect((await exchangeCode(t, browser, code, p.verifier)).status).toBe(200);
    });
  });

  describe('client authentication at the exchange', () => {
    it('confidential client without its secret → invalid_client 401', async () => {
      const { code, verifier } = await authorizeViaApi(t, server, user);
      const res = await exchangeCode(t, { ...server, secret: undefined }, code, verifier);
      expectOAuthError(res, 401, 'invalid_client', 'Client authentication required');
      // the code was not touched: the authenticated client can still use it
      expect((await exchangeCode(t, server, code, verifier)).status).toBe(200);
    });

    it('confidential client with a wrong secret → invalid_client 401', async () => {
      const { code, verifier } = await authorizeViaApi(t, server, user);
      const res = await exchangeCode(t, { ...server, secret: 'wrong' }, code, verifier);
      expectOAuthError(res, 401, 'invalid_client', 'Client authentication failed');
    });

    it('public client sending a secret → invalid_client 401', async () => {
      const { code, verifier } = await authorizeViaApi(t, browser, user);
      const res = await exchangeCode(t, { ...browser, secret: 'anything' }, code, verifier);
      expectOAuthError(res, 401, 'invalid_client', 'Public clients do not authenticate with a secret');
    });

    it('secret both in Basic and in the form → invalid_request', async () => {
      const { code, verifier } = await authorizeViaApi(t, server, user);
      const res = await tokenRequest(
        t,
        {
          grant_type: 'authorization_code',
          client_secret: server.secret as string,
          code,
          code_verifier: verifier,
          redirect_uri: server.redirectUri,
        },
        basicAuth(server.id, server.secret as string),
      );
      expectOAuthError(
        res,
        400,
        'invalid_request',
        'Use one client authentication method: HTTP Basic or client_secret in the form, not both',
      );
    });
  });

  describe('the approving user', () => {
    it('set INACTIVE before the exchange → invalid_grant', async () => {
      const u = await createUser(t);
      const { code, verifier } = await authorizeViaApi(t, browser, u);
      await t.ds.query("UPDATE users SET status = 'INACTIVE' WHERE id = $1", [u.id]);
      expectOAuthError(
        await exchangeCode(t, browser, code, verifier),
        400,
        'invalid_grant',
        'The user of this grant is no longer active in the application’s domain',
      );
    });

    it('removed from the app’s domain before the exchange → invalid_grant', async () => {
      const u = await createUser(t);
      const { code, verifier } = await authorizeViaApi(t, browser, u);
      await t.ds.query('DELETE FROM user_system_domains WHERE user_id = $1', [u.id]);
      expectOAuthError(await exchangeCode(t, browser, code, verifier), 400, 'invalid_grant');
    });
  });
});
