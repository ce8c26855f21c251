import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const TOKEN = '/API/auth/v1/auth/token/';
const byId = (id: string) => `/API/auth/v1/auth/token/${id}/`;
const OWN = '/API/auth/v1/auth/tokens/';
const ofApp = (id: string) => `/API/auth/v1/auth/${id}/tokens/`;

describe('token management /API/auth/v1/auth/', () => {
  let t: TestApp;
  let admin: UserEntity;
  let adminToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { isAdmin: true });
    adminToken = (await tokenFor(t, admin)).token;
  });
  afterAll(() => t.close());

  describe('/token/ (the presented credential)', () => {
    it('GET validates and describes it', async () => {
      const user = await createUser(t);
      const minted = await tokenFor(t, user, { expiresInSeconds: 600 });
      const res = await t.http.get(TOKEN).set(bearer(minted.token)).expect(200);
      expect(res.body).toEqual({
        token: minted.token,
        id: minted.id,
        app_id: minted.appId,
        user_id: user.id,
        system_domain_id: t.domainId,
        system_domains: [t.domainId],
        system_domain_status: 'ACTIVE',
        system_domain_type: 'INTERNAL',
        system_domain_is_plg: false,
        system_domain_warning_message: null,
        is_admin: false,
        is_mfa_authenticated: false,
        is_super_admin: false,
        is_super_admin_light: false,
        kind: 'LOGIN',
        scopes: null,
        expires: expect.any(String),
        revoked_at: null,
        // set in the background on use: null or a date, depending on timing
        last_used_at: res.body.last_used_at === null ? null : expect.any(String),
        date_created: expect.any(String),
        date_modified: expect.any(String),
      });
      expect(Math.abs(new Date(res.body.expires).getTime() - (Date.now() + 600_000))).toBeLessThan(30_000);
      expect(res.body.expires).toMatch(/T.*(Z|[+-]\d\d:\d\d)$/);
    });

    it('POST → 201 a new token; the current one stays valid', async () => {
      const user = await createUser(t);
      const old = await tokenFor(t, user);
      const res = await t.http.post(TOKEN).set(bearer(old.token)).expect(201);
      expect(res.body).toMatchObject({ token: expect.any(String), user_id: user.id, kind: 'LOGIN' });
      expect(res.body.token).not.toBe(old.token);
      expect(res.body.id).not.toBe(old.id);
      await t.http.get(TOKEN).set(bearer(old.token)).expect(200);
      await t.http.get(TOKEN).set(bearer(res.body.token)).expect(200);
    });

    it('PUT → 200 a new token; the current one is revoked at once', async () => {
      const user = await createUser(t);
      const old = await tokenFor(t, user);
      const res = await t.http.put(TOKEN).set(bearer(old.token)).expect(200);
      expect(res.body).toMatchObject({ token: expect.any(String), user_id: user.id });
      const again = await t.http.get(TOKEN).set(bearer(old.token)).expect(401);
      expect(again.body).toEqual({ errors: ['Token has been revoked'] });
      await t.http.get(TOKEN).set(bearer(res.body.token)).expect(200);
      // a second refresh with the revoked token fails
      await t.http.put(TOKEN).set(bearer(old.token)).expect(401);
    });

    it('renewing a PAT keeps its expiry', async () => {
      const user = await createUser(t);
      const app = await createApp(t, { defaultUserId: user.id });
      const old = await tokenFor(t, user, { kind: 'PAT', appId: app.id, expiresInSeconds: 7200 });
      const before = (await t.http.get(TOKEN).set(bearer(old.token)).expect(200)).body;
      const res = await t.http.post(TOKEN).set(bearer(old.token)).expect(201);
      expect(res.body).toMatchObject({ kind: 'PAT', app_id: app.id, expires: before.expires });
    });

    it('OAuth access tokens cannot be renewed here → 403', async () => {
      const user = await createUser(t);
      const app = await createApp(t, {
        type: 'OAUTH',
        clientType: 'confidential',
        scopes: ['user_impersonation'],
      });
      const oauth = await tokenFor(t, user, { kind: 'OAUTH', appId: app.id, scopes: ['user_impersonation'] });
      await t.http.post(TOKEN).set(bearer(oauth.token)).expect(403);
      await t.http.put(TOKEN).set(bearer(oauth.token)).expect(403);
      await t.http.get(TOKEN).set(bearer(oauth.token)).expect(200);
    });

    it('DELETE → 200 with an empty body; the next request gets 401', async () => {
      const user = await createUser(t);
      const minted = await tokenFor(t, user);
      const res = await t.http.delete(TOKEN).set(bearer(minted.token)).expect(200);
      expect(res.text).toBe('');
      const next = await t.http.get(TOKEN).set(bearer(minted.token)).expect(401);
      expect(next.body).toEqual({ errors: ['Token has been revoked'] });
      await t.http.delete(TOKEN).set(bearer(minted.token)).expect(401);
    });

    it('without a credential → 401', async () => {
      const res = await t.http.get(TOKEN).expect(401);
      expect(res.body).toEqual({ errors: ['Authentication credentials were not provided'] });
    });
  });

  describe('/token/{token_id}/', () => {
    let owner: UserEntity;
    let ownerToken: string;
    let target: { id: string; token: string };
    let foreign: { id: string; token: string };

    beforeAll(async () => {
      owner = await createUser(t);
      ownerToken = (await tokenFor(t, owner)).token;
      target = await tokenFor(t, owner);
      const d = await createDomain(t);
      foreign = await tokenFor(t, await createUser(t, { domainId: d.id, isAdmin: true }));
    });

    it('GET own → 200 TokenOutput without the JWT', async () => {
      const res = await t.http.get(byId(target.id)).set(bearer(ownerToken)).expect(200);
      expect(res.body).toMatchObject({ id: target.id, user_id: owner.id, system_domain_id: t.domainId });
      expect(res.body).not.toHaveProperty('token');
    });

    it('someone else’s as a non-administrator answers exactly like an unknown id (404); as an administrator → 200', async () => {
      const stranger = (await tokenFor(t, await createUser(t))).token;
      const theirs = await t.http.get(byId(target.id)).set(bearer(stranger)).expect(404);
      const unknown = await t.http.get(byId(randomUUID())).set(bearer(stranger)).expect(404);
      expect(theirs.body).toEqual({ errors: ['Token not found'] });
      expect(theirs.body).toEqual(unknown.body);
      // the same for revocation, which also leaves the token working
      const del = await t.http.delete(byId(target.id)).set(bearer(stranger)).expect(404);
      expect(del.body).toEqual(unknown.body);
      await t.http.get('/API/auth/v1/auth/token/').set(bearer(target.token)).expect(200);
      await t.http.get(byId(target.id)).set(bearer(adminToken)).expect(200);
    });

    it('GET another domain’s token → 404 (even for an administrator); unknown or malformed → 404', async () => {
      const res = await t.http.get(byId(foreign.id)).set(bearer(adminToken)).expect(404);
      expect(res.body).toEqual({ errors: ['Token not found'] });
      await t.http.get(byId(randomUUID())).set(bearer(adminToken)).expect(404);
      const bad = await t.http.get(byId('12345')).set(bearer(adminToken)).expect(404);
      expect(bad.body).toEqual({ errors: ['Token not found'] });
      // the other domain's administrator cannot see ours either
      await t.http.get(byId(target.id)).set(bearer(foreign.token)).expect(404);
    });

    it('DELETE: someone else’s as a non-administrator → 404, and the token still works', async () => {
      const victim = await tokenFor(t, owner);
      const stranger = (await tokenFor(t, await createUser(t))).token;
      await t.http.delete(byId(victim.id)).set(bearer(stranger)).expect(404);
      await t.http.get(TOKEN).set(bearer(victim.token)).expect(200);
    });

    it('DELETE own → 200 empty; the token is dead on the next request', async () => {
      const mine = await tokenFor(t, owner);
      const res = await t.http.delete(byId(mine.id)).set(bearer(ownerToken)).expect(200);
      expect(res.text).toBe('');
      await t.http.get(TOKEN).set(bearer(mine.token)).expect(401);
      await t.http.get(TOKEN).set(bearer(ownerToken)).expect(200);
    });

    it('DELETE of a super administrator’s token: 403 for a domain administrator, 200 for a super administrator', async () => {
      const boss = await createUser(t, { isSuperAdmin: true });
      const victim = await tokenFor(t, boss);
      const res = await t.http.delete(byId(victim.id)).set(bearer(adminToken)).expect(403);
      expect(res.body).toEqual({
        errors: ['Only a super administrator may revoke a super administrator’s tokens'],
      });
      expect(res.headers['x-error-code']).toBe('tokens.SUPER_ADMIN_TOKEN');
      await t.http.get(TOKEN).set(bearer(victim.token)).expect(200);
      // the super administrator themself, and another one, may
      const own = await tokenFor(t, boss);
      await t.http.delete(byId(own.id)).set(bearer(victim.token)).expect(200);
      const other = (await tokenFor(t, await createUser(t, { isSuperAdmin: true }))).token;
      await t.http.delete(byId(victim.id)).set(bearer(other)).expect(200);
      await t.http.get(TOKEN).set(bearer(victim.token)).expect(401);
    });

    it('DELETE by an administrator → 200; another domain’s or malformed → 404', async () => {
      const victim = await tokenFor(t, owner);
      await t.http.delete(byId(victim.id)).set(bearer(adminToken)).expect(200);
      await t.http.get(TOKEN).set(bearer(victim.token)).expect(401);
      await t.http.delete(byId(foreign.id)).set(bearer(adminToken)).expect(404);
      await t.http.get(TOKEN).set(bearer(foreign.token)).expect(200);
      await t.http.delete(byId('nope')).set(bearer(adminToken)).expect(404);
    });
  });

  describe('/tokens/ (own, cursor style)', () => {
    it('lists only the caller’s live tokens in this domain, page by page', async () => {
      const d2 = await createDomain(t);
      const user = await createUser(t, { alsoIn: [d2.id] });
      const live = [await tokenFor(t, user), await tokenFor(t, user), await tokenFor(t, user)];
      const revoked = await tokenFor(t, user);
      await t.http.delete(TOKEN).set(bearer(revoked.token)).expect(200);
      const expired = await tokenFor(t, user);
      await t.ds.query("UPDATE tokens SET expires = now() - interval '1 minute' WHERE id = $1", [expired.id]);
      await tokenFor(t, user, { domainId: d2.id });
      await tokenFor(t, await createUser(t));

      const seen: string[] = [];
      let url: string | null = `${OWN}?per_page=2`;
      while (url) {
        expect(url.startsWith('/API/')).toBe(true);
        const res: Response = await t.http.get(url).set(bearer(live[0].token)).expect(200);
        expect(res.body).toMatchObject({ total: 3, per_page: 2, pages: 2 });
        for (const o of res.body.objects) {
          expect(o).not.toHaveProperty('token');
          expect(o.user_id).toBe(user.id);
          expect(o.system_domain_id).toBe(t.domainId);
        }
        seen.push(...res.body.objects.map((o: { id: string }) => o.id));
        url = res.body.next_url;
        if (url) expect(url).toContain(`last_id=${seen[seen.length - 1]}`);
      }
      expect(seen.sort()).toEqual(live.map((l) => l.id).sort());
    });

    it('bad per_page → 400', async () => {
      const res = await t.http.get(`${OWN}?per_page=0`).set(bearer(adminToken)).expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['per_page']);
    });
  });

  describe('/{app_id}/tokens/ (administrators)', () => {
    it('lists the live tokens of an app', async () => {
      const user = await createUser(t);
      const app = await createApp(t, { defaultUserId: user.id });
      const a = await tokenFor(t, user, { kind: 'PAT', appId: app.id });
      const b = await tokenFor(t, admin, { kind: 'PAT', appId: app.id });
      const gone = await tokenFor(t, user, { kind: 'PAT', appId: app.id });
      await t.http.delete(TOKEN).set(bearer(gone.token)).expect(200);
      await tokenFor(t, user); // another app
      const res = await t.http.get(ofApp(app.id)).set(bearer(adminToken)).expect(200);
      expect(res.body).toMatchObject({ total: 2, page: 1, pages: 1, next_url: null, prev_url: null });
      expect(res.body.objects.map((o: { id: string }) => o.id).sort()).toEqual([a.id, b.id].sort());
      for (const o of res.body.objects) expect(o).not.toHaveProperty('token');
      const paged = await t.http
        .get(`${ofApp(app.id)}?per_page=1`)
        .set(bearer(adminToken))
        .expect(200);
      expect(paged.body.next_url).toMatch(
        /^\/API\/auth\/v1\/auth\/[0-9a-f-]{36}\/tokens\/?\?per_page=1&last_id=/,
      );
    });

    it('a non-administrator → 403 (even with can_read_tokens)', async () => {
      const app = await createApp(t);
      const plain = (await tokenFor(t, await createUser(t, { roles: ['can_read_tokens', 'can_read_apps'] })))
        .token;
      const res = await t.http.get(ofApp(app.id)).set(bearer(plain)).expect(403);
      expect(res.body).toEqual({ errors: ['Requires an administrator'] });
    });

    it('another domain’s app or a malformed id → 404', async () => {
      const d = await createDomain(t);
      const app = await createApp(t, { domainId: d.id });
      await t.http.get(ofApp(app.id)).set(bearer(adminToken)).expect(404);
      await t.http.get(ofApp('xyz')).set(bearer(adminToken)).expect(404);
    });
  });
});
