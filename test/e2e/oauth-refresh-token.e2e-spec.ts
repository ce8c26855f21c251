import { decodeJwt } from 'jose';
import { Clock } from '../../src/base/common/clock.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  basicAuth,
  createOAuthApp,
  domainAdminToken,
  expectOAuthError,
  expectTokenResponse,
  OAUTH,
  type OAuthApp,
  obtainTokens,
  REFRESH_TTL_SECONDS,
  refreshGrant,
  refreshRecord,
  tokenRequest,
} from '../utils/oauth.js';

const REPLAYED = 'The refresh token was already used; the authorization has been revoked';
const INVALID = 'The refresh token is invalid, expired or revoked';
const DAY = 24 * 3600 * 1000;

describe('OAuth refresh_token grant', () => {
  let t: TestApp;
  let user: UserEntity;
  let browser: OAuthApp;
  let server: OAuthApp;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
    browser = await createOAuthApp(t, {
      kind: 'browser',
      scopes: ['assets:read', 'assets:write', 'collections:read'],
    });
    server = await createOAuthApp(t, { kind: 'server', scopes: ['assets:read', 'collections:read'] });
  });
  afterAll(() => t.close());
  afterEach(() => t.get(Clock).reset());

  describe('rotation', () => {
    it('a refresh returns new access and refresh tokens with the same scope; the new refresh token works', async () => {
      const first = await obtainTokens(t, browser, user);
      const res = await refreshGrant(t, browser, first.refresh_token);
      expectTokenResponse(res, { scope: 'assets:read assets:write collections:read', refresh: true });
      expect(res.body.refresh_token).not.toBe(first.refresh_token);
      expect(res.body.access_token).not.toBe(first.access_token);
      expect(decodeJwt(res.body.access_token)).toMatchObject({ app_id: browser.id, user_id: user.id });
      await t.http.get(OAUTH.validate).set(bearer(res.body.access_token)).expect(200);
      // same authorization; the old refresh token is marked used
      const [oldRow, newRow] = [
        await refreshRecord(t, first.refresh_token),
        await refreshRecord(t, res.body.refresh_token),
      ];
      expect(newRow.grant_id).toBe(oldRow.grant_id);
      expect(oldRow.used_at).not.toBeNull();
      expect(newRow.used_at).toBeNull();
      // and the chain goes on
      const next = await refreshGrant(t, browser, res.body.refresh_token);
      expectTokenResponse(next, { scope: 'assets:read assets:write collections:read', refresh: true });
    });

    it('confidential clients authenticate: secret in the form or Basic', async () => {
      const first = await obtainTokens(t, server, user);
      const second = await refreshGrant(t, server, first.refresh_token);
      expectTokenResponse(second, { scope: 'assets:read collections:read', refresh: true });
      const third = await tokenRequest(
        t,
        { grant_type: 'refresh_token', refresh_token: second.body.refresh_token },
        basicAuth(server.id, server.secret as string),
      );
      expectTokenResponse(third, { scope: 'assets:read collections:read', refresh: true });
    });

    it('every rotated refresh token lives 60 days from its issue', async () => {
      const first = await obtainTokens(t, browser, user);
      t.get(Clock).advance(10 * DAY);
      const res = await refreshGrant(t, browser, first.refresh_token).expect(200);
      const row = await refreshRecord(t, res.body.refresh_token);
      const expected = Date.now() + 10 * DAY + REFRESH_TTL_SECONDS * 1000;
      expect(Math.abs(new Date(row.expires).getTime() - expected)).toBeLessThan(5000);
    });
  });

  describe('replay of a used refresh token', () => {
    it('→ invalid_grant, and the whole chain is revoked: the newest access and refresh tokens stop working', async () => {
      const first = await obtainTokens(t, browser, user);
      const second = (await refreshGrant(t, browser, first.refresh_token).expect(200)).body;
      const third = (await refreshGrant(t, browser, second.refresh_token).expect(200)).body;
      await t.http.get(OAUTH.validate).set(bearer(third.access_token)).expect(200);

      // an attacker (or a confused client) presents an old one
      expectOAuthError(await refreshGrant(t, browser, first.refresh_token), 400, 'invalid_grant', REPLAYED);

      for (const access of [first.access_token, second.access_token, third.access_token]) {
        const res = await t.http.get(OAUTH.validate).set(bearer(access)).expect(401);
        expect(res.body).toEqual({ errors: ['Token has been revoked'] });
      }
      expectOAuthError(await refreshGrant(t, browser, third.refresh_token), 400, 'invalid_grant', INVALID);
      expectOAuthError(await refreshGrant(t, browser, second.refresh_token), 400, 'invalid_grant', INVALID);
    });

    it('leaves the user’s other authorizations alone', async () => {
      const a = await obtainTokens(t, browser, user);
      const b = await obtainTokens(t, browser, user);
      await refreshGrant(t, browser, a.refresh_token).expect(200);
      await refreshGrant(t, browser, a.refresh_token).expect(400);
      await t.http.get(OAUTH.validate).set(bearer(b.access_token)).expect(200);
      await refreshGrant(t, browser, b.refresh_token).expect(200);
    });

    it('race: 100 concurrent refreshes with the same token → exactly one 200, the rest invalid_grant', async () => {
      const first = await obtainTokens(t, browser, user);
      const results = await Promise.all(
        Array.from({ length: 100 }, () => refreshGrant(t, browser, first.refresh_token)),
      );
      const ok = results.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      const failed = results.filter((r) => r.status !== 200);
      expect(failed).toHaveLength(99);
      for (const r of failed) expectOAuthError(r, 400, 'invalid_grant');
      // exactly one successor was ever stored for this authorization
      const { grant_id } = await refreshRecord(t, first.refresh_token);
      const [{ n }] = await t.ds.query(
        'SELECT count(*)::int AS n FROM oauth_refresh_tokens WHERE grant_id = $1',
        [grant_id],
      );
      expect(n).toBe(2);
    }, 60_000);

    it('race on a rotated token (its facts remembered by the instance) → exactly one 200; a replay revokes', async () => {
      const first = await obtainTokens(t, browser, user);
      const second = (await refreshGrant(t, browser, first.refresh_token).expect(200)).body;
      const results = await Promise.all(
        Array.from({ length: 50 }, () => refreshGrant(t, browser, second.refresh_token)),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 200)) expectOAuthError(r, 400, 'invalid_grant');
      const { grant_id } = await refreshRecord(t, first.refresh_token);
      const [{ n }] = await t.ds.query(
        'SELECT count(*)::int AS n FROM oauth_refresh_tokens WHERE grant_id = $1',
        [grant_id],
      );
      expect(n).toBe(3);
      // the losers were replays: the whole chain is revoked, the winner's tokens included
      const winner = results.find((r) => r.status === 200)!.body;
      await t.http.get(OAUTH.validate).set(bearer(winner.access_token)).expect(401);
      expectOAuthError(await refreshGrant(t, browser, winner.refresh_token), 400, 'invalid_grant', INVALID);
    }, 60_000);

    it('concurrent rotations of different chains: each succeeds once and stores exactly its successor', async () => {
      const chains = await Promise.all(Array.from({ length: 10 }, () => obtainTokens(t, browser, user)));
      const rotated = await Promise.all(chains.map((c) => refreshGrant(t, browser, c.refresh_token)));
      chains.forEach((c, i) => expectTokenResponse(rotated[i], { scope: c.scope, refresh: true }));
      const again = await Promise.all(rotated.map((r) => refreshGrant(t, browser, r.body.refresh_token)));
      for (const r of again) expect(r.status).toBe(200);
      for (const c of chains) {
        const { grant_id } = await refreshRecord(t, c.refresh_token);
        const rows: { used: boolean }[] = await t.ds.query(
          'SELECT used_at IS NOT NULL AS used FROM oauth_refresh_tokens WHERE grant_id = $1',
          [grant_id],
        );
        expect(rows.map((r) => r.used).sort()).toEqual([false, true, true]);
      }
    }, 60_000);
  });

  describe('a rotated token whose facts the instance remembers is still judged by its row', () => {
    it('revoked → invalid_grant', async () => {
      const first = await obtainTokens(t, browser, user);
      const second = (await refreshGrant(t, browser, first.refresh_token).expect(200)).body;
      await t.http.delete(OAUTH.refreshRevoke).send({ refresh_token: second.refresh_token }).expect(200);
      expectOAuthError(await refreshGrant(t, browser, second.refresh_token), 400, 'invalid_grant', INVALID);
    });

    it('user set INACTIVE → invalid_grant and not spent; expired → invalid_grant', async () => {
      const u = await createUser(t);
      const first = await obtainTokens(t, browser, u);
      const second = (await refreshGrant(t, browser, first.refresh_token).expect(200)).body;
      await t.ds.query("UPDATE users SET status = 'INACTIVE' WHERE id = $1", [u.id]);
      expectOAuthError(
        await refreshGrant(t, browser, second.refresh_token),
        400,
        'invalid_grant',
        'The user of this grant is no longer active in the application’s domain',
      );
      await t.ds.query("UPDATE users SET status = 'ACTIVE' WHERE id = $1", [u.id]);
      const third = (await refreshGrant(t, browser, second.refresh_token).expect(200)).body;
      t.get(Clock).advance(REFRESH_TTL_SECONDS * 1000 + DAY);
      expectOAuthError(await refreshGrant(t, browser, third.refresh_token), 400, 'invalid_grant', INVALID);
    });

    it('another client presenting it → invalid_grant, and its owner can still use it', async () => {
      const first = await obtainTokens(t, browser, user);
      const second = (await refreshGrant(t, browser, first.refresh_token).expect(200)).body;
      expectOAuthError(await refreshGrant(t, server, second.refresh_token), 400, 'invalid_grant', INVALID);
      await refreshGrant(t, browser, second.refresh_token).expect(200);
    });
  });

  describe('scope', () => {
    it('may narrow, and a narrowed chain cannot widen again', async () => {
      const first = await obtainTokens(t, browser, user);
      const narrow = await refreshGrant(t, browser, first.refresh_token, { scope: 'assets:read' });
      expectTokenResponse(narrow, { scope: 'assets:read', refresh: true });
      const [record] = await t.ds.query('SELECT scopes FROM tokens WHERE id = $1', [
        decodeJwt(narrow.body.access_token).id,
      ]);
      expect(record.scopes).toEqual(['assets:read']);
      // omitted: the (narrowed) scope of the chain
      const same = await refreshGrant(t, browser, narrow.body.refresh_token);
      expectTokenResponse(same, { scope: 'assets:read', refresh: true });
      // asking for more than the chain holds now → invalid_scope listing what it may ask for
      const wider = await refreshGrant(t, browser, same.body.refresh_token, {
        scope: 'assets:read assets:write',
      });
      expectOAuthError(
        wider,
        400,
        'invalid_scope',
        'A refresh may only narrow the scope of the authorization; allowed scopes: assets:read',
      );
    });

    it('escalation beyond the authorization → invalid_scope listing the allowed scopes; the token is not spent', async () => {
      const first = await obtainTokens(t, browser, user, { scope: 'assets:read collections:read' });
      const res = await refreshGrant(t, browser, first.refresh_token, { scope: 'assets:read assets:write' });
      expectOAuthError(
        res,
        400,
        'invalid_scope',
        'A refresh may only narrow the scope of the authorization; allowed scopes: assets:read collections:read',
      );
      expect((await refreshRecord(t, first.refresh_token)).used_at).toBeNull();
      expectTokenResponse(await refreshGrant(t, browser, first.refresh_token), {
        scope: 'assets:read collections:read',
        refresh: true,
      });
    });

    it('a scope unknown to the platform → invalid_scope', async () => {
      const first = await obtainTokens(t, browser, user);
      const res = await refreshGrant(t, browser, first.refresh_token, { scope: 'admin' });
      expectOAuthError(res, 400, 'invalid_scope', /: assets:read assets:write collections:read$/);
    });

    it('a scope the app has lost since the authorization is dropped at the next refresh', async () => {
      const app = await createOAuthApp(t, { kind: 'browser', scopes: ['assets:read', 'assets:write'] });
      const first = await obtainTokens(t, app, user);
      await t.http
        .patch(`/API/auth/v1/apps/${app.id}/`)
        .set(bearer(await domainAdminToken(t)))
        .send({ allowed_scopes: ['assets:read'] })
        .expect(200);
      expectTokenResponse(await refreshGrant(t, app, first.refresh_token), {
        scope: 'assets:read',
        refresh: true,
      });
    });
  });

  describe('invalid refresh tokens → invalid_grant', () => {
    // unknown, and a missing one (invalid_request): refresh-token.grant.spec.ts
    it('expired after 60 days (good the day before)', async () => {
      const a = await obtainTokens(t, browser, user);
      const b = await obtainTokens(t, browser, user);
      t.get(Clock).advance(59 * DAY);
      await refreshGrant(t, browser, a.refresh_token).expect(200);
      t.get(Clock).advance(DAY + 1000);
      expectOAuthError(await refreshGrant(t, browser, b.refresh_token), 400, 'invalid_grant', INVALID);
    });

    it('another client’s refresh token → invalid_grant, without harming its owner', async () => {
      const other = await createOAuthApp(t, { kind: 'browser' });
      const first = await obtainTokens(t, browser, user);
      expectOAuthError(await refreshGrant(t, other, first.refresh_token), 400, 'invalid_grant', INVALID);
      await t.http.get(OAUTH.validate).set(bearer(first.access_token)).expect(200);
      await refreshGrant(t, browser, first.refresh_token).expect(200);
    });

    it('revoked with DELETE /API/auth/v1/refresh/token/', async () => {
      const first = await obtainTokens(t, browser, user);
      await t.http.delete(OAUTH.refreshRevoke).send({ refresh_token: first.refresh_token }).expect(200);
      expectOAuthError(await refreshGrant(t, browser, first.refresh_token), 400, 'invalid_grant', INVALID);
    });

    it('the user set INACTIVE → invalid_grant (the token is not spent: active again, it works)', async () => {
      const u = await createUser(t);
      const first = await obtainTokens(t, browser, u);
      await t.ds.query("UPDATE users SET status = 'INACTIVE' WHERE id = $1", [u.id]);
      expectOAuthError(
        await refreshGrant(t, browser, first.refresh_token),
        400,
        'invalid_grant',
        'The user of this grant is no longer active in the application’s domain',
      );
      await t.ds.query("UPDATE users SET status = 'ACTIVE' WHERE id = $1", [u.id]);
      await refreshGrant(t, browser, first.refresh_token).expect(200);
    });

    it('the app’s domain DEACTIVATED → invalid_grant', async () => {
      const domain = await createDomain(t);
      const u = await createUser(t, { domainId: domain.id });
      const app = await createOAuthApp(t, { kind: 'browser', domainId: domain.id });
      const first = await obtainTokens(t, app, u);
      await t.ds.query("UPDATE system_domains SET status = 'DEACTIVATED' WHERE id = $1", [domain.id]);
      expectOAuthError(
        await refreshGrant(t, app, first.refresh_token),
        400,
        'invalid_grant',
        'The user of this grant is no longer active in the application’s domain',
      );
    });

    it('the user removed from the app’s domain → invalid_grant', async () => {
      const u = await createUser(t);
      const first = await obtainTokens(t, browser, u);
      await t.ds.query('DELETE FROM user_system_domains WHERE user_id = $1', [u.id]);
      expectOAuthError(await refreshGrant(t, browser, first.refresh_token), 400, 'invalid_grant');
    });
  });

  describe('client authentication', () => {
    it('confidential client without its secret → invalid_client 401', async () => {
      const first = await obtainTokens(t, server, user);
      const res = await tokenRequest(t, {
        grant_type: 'refresh_token',
        client_id: server.id,
        refresh_token: first.refresh_token,
      });
      expectOAuthError(res, 401, 'invalid_client', 'Client authentication required');
    });

    it('public client sending a secret → invalid_client 401', async () => {
      const first = await obtainTokens(t, browser, user);
      const res = await refreshGrant(t, { ...browser, secret: 'x' }, first.refresh_token);
      expectOAuthError(res, 401, 'invalid_client', 'Public clients do not authenticate with a secret');
    });
  });
});
