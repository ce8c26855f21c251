import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccessService } from '../../src/base/common/auth/access.service.js';
import { AuthGuard } from '../../src/auth/auth.guard.js';
import { Authenticator } from '../../src/auth/authenticator.js';
import { Authenticated } from '../../src/base/common/auth/authenticated.decorator.js';
import { ApiError } from '../../src/base/common/errors/api-error.js';
import { RateLimiter } from '../../src/base/common/rate-limit/rate-limiter.js';
import { Clock } from '../../src/base/common/clock.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { ASSET_ROLES, bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  clientCredentials,
  createOAuthApp,
  expectOAuthError,
  expectTokenResponse,
  OAUTH,
  type OAuthApp,
  obtainTokens,
  refreshGrant,
} from '../utils/oauth.js';

const ALL_SCOPES = [
  'assets:read',
  'assets:write',
  'assets:delete',
  'collections:read',
  'collections:write',
  'collections:delete',
  'user_impersonation',
];

/**
 * The asset and collection services are not mounted yet, so no HTTP route needs the roles the six bundles
 * hold. This probe declares routes the way those services will (`@Authenticated({ roles })`) and runs the
 * application's own guard on them with real tokens; everything else below goes through HTTP.
 */
class AssetRoutesProbe {
  @Authenticated({ roles: ['can_read_assets'] }) can_read_assets() {}
  @Authenticated({ roles: ['can_write_assets'] }) can_write_assets() {}
  @Authenticated({ roles: ['can_delete_assets'] }) can_delete_assets() {}
  @Authenticated({ roles: ['can_read_collections'] }) can_read_collections() {}
  @Authenticated({ roles: ['can_write_collections'] }) can_write_collections() {}
  @Authenticated({ roles: ['can_delete_collections'] }) can_delete_collections() {}
}

/** Which roles each scope bundles (the spec's Scopes table). */
const COVERS: Record<string, string[]> = {
  'assets:read': ['can_read_assets'],
  'assets:write': ['can_read_assets', 'can_write_assets'],
  'assets:delete': ['can_read_assets', 'can_delete_assets'],
  'collections:read': ['can_read_collections'],
  'collections:write': ['can_read_collections', 'can_write_collections'],
  'collections:delete': ['can_read_collections', 'can_delete_collections'],
  user_impersonation: ASSET_ROLES,
};

describe('OAuth scopes: app scopes AND user roles AND ACL', () => {
  let t: TestApp;
  let app: OAuthApp;
  let admin: UserEntity;
  let assetUser: UserEntity;
  let appReader: UserEntity;
  let plain: UserEntity;

  beforeAll(async () => {
    t = await createTestApp();
    app = await createOAuthApp(t, { kind: 'browser', scopes: ALL_SCOPES });
    admin = await createUser(t, { isAdmin: true });
    assetUser = await createUser(t, { roles: ASSET_ROLES });
    appReader = await createUser(t, { roles: ['can_read_apps'] });
    plain = await createUser(t);
  });
  afterAll(() => t.close());

  async function probe(route: string, token: string): Promise<{ status: number; errors?: unknown }> {
    const guard = new AuthGuard(
      t.get(Reflector),
      t.get(AccessService),
      t.get(RateLimiter),
      t.get(Clock),
      t.config,
      t.get(Authenticator),
    );
    const req = {
      headers: { authorization: `Bearer ${token}` },
      params: {},
      query: {},
      method: 'GET',
      url: '/probe',
      ip: '127.0.0.1',
    };
    const res = { headersSent: false, setHeader: () => undefined };
    const handler = AssetRoutesProbe.prototype[route as keyof AssetRoutesProbe];
    const context = {
      getHandler: () => handler,
      getClass: () => AssetRoutesProbe,
      getType: () => 'http',
      getArgs: () => [req, res],
      getArgByIndex: (i: number) => [req, res][i],
      switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
    } as unknown as ExecutionContext;
    try {
      await guard.canActivate(context);
      return { status: 200 };
    } catch (e) {
      if (e instanceof ApiError) return { status: e.status, errors: e.errors };
      throw e;
    }
  }

  describe('each scope is a bundle of roles (asset and collection routes)', () => {
    it.each(ALL_SCOPES)('%s: passes exactly the routes whose roles it bundles', async (scope) => {
      const { access_token } = await obtainTokens(t, app, assetUser, { scope });
      for (const role of ASSET_ROLES) {
        const result = await probe(role, access_token);
        if (COVERS[scope].includes(role)) expect({ role, ...result }).toEqual({ role, status: 200 });
        else
          expect({ role, ...result }).toEqual({
            role,
            status: 403,
            errors: [`The token's scopes do not cover: ${role}`],
          });
      }
    });

    it('several scopes add up', async () => {
      const { access_token } = await obtainTokens(t, app, assetUser, {
        scope: 'assets:read collections:delete',
      });
      const passing = [];
      for (const role of ASSET_ROLES)
        if ((await probe(role, access_token)).status === 200) passing.push(role);
      expect(passing).toEqual(['can_read_assets', 'can_read_collections', 'can_delete_collections']);
    });

    it('a covering scope does not give the user a role they lack → 403 Missing role', async () => {
      const reader = await createUser(t, { roles: ['can_read_assets'] });
      const { access_token } = await obtainTokens(t, app, reader, { scope: 'assets:write' });
      expect(await probe('can_read_assets', access_token)).toEqual({ status: 200 });
      expect(await probe('can_write_assets', access_token)).toEqual({
        status: 403,
        errors: ['Missing role: can_write_assets'],
      });
    });

    it('the user’s login token (not OAuth) is bound by roles only', async () => {
      const { token } = await tokenFor(t, assetUser);
      for (const role of ASSET_ROLES) expect(await probe(role, token)).toEqual({ status: 200 });
    });
  });

  describe('on the mounted routes', () => {
    it('scopes that do not cover the route → 403, even for an administrator', async () => {
      const narrow = ALL_SCOPES.filter((s) => s !== 'user_impersonation').join(' ');
      const { access_token } = await obtainTokens(t, app, admin, { scope: narrow });
      const res = await t.http.get('/API/auth/v1/apps/').set(bearer(access_token)).expect(403);
      expect(res.body).toEqual({ errors: ["The token's scopes do not cover: can_read_apps"] });
      const users = await t.http.get('/API/users/v1/users/').set(bearer(access_token)).expect(403);
      expect(users.body).toEqual({ errors: ["The token's scopes do not cover: can_read_users"] });
    });

    it('routes that need no role but manage the account need user_impersonation', async () => {
      const { access_token } = await obtainTokens(t, app, admin, { scope: 'assets:read' });
      const list = await t.http.get('/API/auth/v1/auth/tokens/').set(bearer(access_token)).expect(403);
      expect(list.body).toEqual({ errors: ['This route needs the user_impersonation scope'] });
      await t.http.post('/API/auth/v1/auth/token/').set(bearer(access_token)).expect(403);
      const approve = await t.http
        .post('/API/auth/v1/apps/external/auth/')
        .set(bearer(access_token))
        .send({ secret: 'x'.repeat(40), app_id: app.id })
        .expect(403);
      expect(approve.body).toEqual({ errors: ['Missing scope: user_impersonation'] });
    });

    it('any scope may describe or revoke its own token, read the caller and the scope list', async () => {
      const { access_token } = await obtainTokens(t, app, plain, { scope: 'collections:read' });
      await t.http.get(OAUTH.validate).set(bearer(access_token)).expect(200);
      const me = await t.http.get('/API/users/v1/users/current/').set(bearer(access_token)).expect(200);
      expect(me.body.id).toBe(plain.id);
      await t.http.get('/API/auth/v1/apps/oauth_scopes/').set(bearer(access_token)).expect(200);
      await t.http.delete(OAUTH.validate).set(bearer(access_token)).expect(200);
      await t.http.get(OAUTH.validate).set(bearer(access_token)).expect(401);
    });

    it('user_impersonation = everything the user can do: an administrator registers an app', async () => {
      const { access_token } = await obtainTokens(t, app, admin, { scope: 'user_impersonation' });
      await t.http.get('/API/auth/v1/apps/').set(bearer(access_token)).expect(200);
      await t.http.get('/API/users/v1/users/').set(bearer(access_token)).expect(200);
      const created = await t.http
        .post('/API/auth/v1/apps/')
        .set(bearer(access_token))
        .send({ name: 'made by an OAuth token', type: 'PAT' })
        .expect(201);
      expect(created.body.name).toBe('made by an OAuth token');
    });

    it('user_impersonation adds nothing the user lacks: role → 403, administrator-only → 403', async () => {
      const { access_token } = await obtainTokens(t, app, plain, { scope: 'user_impersonation' });
      const res = await t.http.get('/API/auth/v1/apps/').set(bearer(access_token)).expect(403);
      expect(res.body).toEqual({ errors: ['Missing role: can_read_apps'] });
      const reader = (await obtainTokens(t, app, appReader, { scope: 'user_impersonation' })).access_token;
      await t.http.get('/API/auth/v1/apps/').set(bearer(reader)).expect(200);
      const create = await t.http
        .post('/API/auth/v1/apps/')
        .set(bearer(reader))
        .send({ name: 'nope', type: 'PAT' })
        .expect(403);
      expect(create.body).toEqual({ errors: ['Requires an administrator'] });
    });

    it('user_impersonation and the role, but the ACL says no → refused', async () => {
      const { access_token } = await obtainTokens(t, app, appReader, { scope: 'user_impersonation' });
      // an app of the caller's domain: allowed
      await t.http.get(`/API/auth/v1/apps/${app.id}/`).set(bearer(access_token)).expect(200);
      // an app of another domain: not even confirmed
      const other = await createDomain(t);
      const foreign = await createOAuthApp(t, { kind: 'backend', domainId: other.id });
      const res = await t.http.get(`/API/auth/v1/apps/${foreign.id}/`).set(bearer(access_token)).expect(404);
      expect(res.body).toEqual({ errors: ['App not found'] });
      // another user's token: owner-only, and not even confirmed
      const theirs = await tokenFor(t, plain);
      const token = await t.http
        .get(`/API/auth/v1/auth/token/${theirs.id}/`)
        .set(bearer(access_token))
        .expect(404);
      expect(token.body).toEqual({ errors: ['Token not found'] });
    });

    it('roles are read on every request: a role taken away → 403 with the same token', async () => {
      const u = await createUser(t, { roles: ['can_read_apps'] });
      const { access_token } = await obtainTokens(t, app, u, { scope: 'user_impersonation' });
      await t.http.get('/API/auth/v1/apps/').set(bearer(access_token)).expect(200);
      await t.ds.query('DELETE FROM group_members WHERE user_id = $1', [u.id]);
      await t.http.get('/API/auth/v1/apps/').set(bearer(access_token)).expect(403);
    });

    it('client_credentials tokens are bound the same way (acting as the default user)', async () => {
      const backend = await createOAuthApp(t, {
        kind: 'backend',
        defaultUserId: appReader.id,
        scopes: ['assets:read', 'user_impersonation'],
      });
      const narrow = (await clientCredentials(t, backend, { scope: 'assets:read' }).expect(200)).body
        .access_token;
      await t.http.get('/API/auth/v1/apps/').set(bearer(narrow)).expect(403);
      const wide = (await clientCredentials(t, backend).expect(200)).body.access_token;
      await t.http.get('/API/auth/v1/apps/').set(bearer(wide)).expect(200);
    });
  });

  describe('scope requests', () => {
    it('escalation on refresh → invalid_scope listing the allowed scopes; narrowing works', async () => {
      const { refresh_token } = await obtainTokens(t, app, appReader, { scope: 'assets:read' });
      const escalate = await refreshGrant(t, app, refresh_token, { scope: 'assets:read user_impersonation' });
      expectOAuthError(
        escalate,
        400,
        'invalid_scope',
        'A refresh may only narrow the scope of the authorization; allowed scopes: assets:read',
      );
      const wide = await obtainTokens(t, app, appReader, { scope: 'assets:read user_impersonation' });
      const narrowed = await refreshGrant(t, app, wide.refresh_token, { scope: 'assets:read' });
      expectTokenResponse(narrowed, { scope: 'assets:read', refresh: true });
      // the narrowed token lost what it gave up
      await t.http.get('/API/auth/v1/apps/').set(bearer(wide.access_token)).expect(200);
      await t.http.get('/API/auth/v1/apps/').set(bearer(narrowed.body.access_token)).expect(403);
    });

    // client_credentials: invalid_scope lists the app's allowed scopes, or says there are none:
    // client-credentials.grant.spec.ts
  });
});
