import { randomBytes, randomUUID } from 'node:crypto';
import { AppEntity } from '../../src/base/model/app.entity.js';
import { TokenIssuer } from '../../src/credentials/mint/token-issuer.js';
import { UserSystemDomainEntity } from '../../src/base/model/user-system-domain.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createApp, createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const APPROVE = '/API/auth/v1/apps/external/auth/';
const collect = (secret: string) => `/API/auth/v1/apps/external/auth/${secret}/`;
const INSTANCE = '/API/auth/v1/apps/instance/';
const instance = (id: string) => `/API/auth/v1/apps/instance/${id}/`;
const VALIDATE = '/API/auth/v1/auth/token/';
const secret = () => randomBytes(32).toString('base64url');

describe('external auth and approved app instances', () => {
  let t: TestApp;
  let user: UserEntity;
  let userToken: string;
  let app: AppEntity;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createUser(t);
    userToken = (await tokenFor(t, user)).token;
    app = await createApp(t, { name: 'Desktop client' });
  });
  afterAll(() => t.close());

  describe('external auth', () => {
    it('approve (signed in) → 201; the program collects a working token once', async () => {
      const s = secret();
      const redirect_info = { url: 'https://desktop.example/done', headers: { 'X-Client': 'desk' } };
      const approved = await t.http
        .post(APPROVE)
        .set(bearer(userToken))
        .send({ secret: s, app_id: app.id, redirect_info })
        .expect(201);
      expect(approved.body).toEqual({ app_id: app.id, redirect_info });

      const got = await t.http.get(collect(s)).expect(200);
      expect(got.body).toEqual({
        app_id: app.id,
        token: expect.any(String),
        date_created: expect.any(String),
        redirect_info,
      });
      const v = await t.http.get(VALIDATE).set(bearer(got.body.token)).expect(200);
      expect(v.body).toMatchObject({ user_id: user.id, app_id: app.id, system_domain_id: t.domainId });
      await t.http.get(VALIDATE).set({ 'App-ID': app.id, 'Auth-Token': got.body.token }).expect(200);

      const again = await t.http.get(collect(s)).expect(404);
      expect(again.body).toEqual({ errors: ['Pending authorization not found'] });
    });

    it('finds the app by name when app_id is absent', async () => {
      const s = secret();
      const res = await t.http
        .post(APPROVE)
        .set(bearer(userToken))
        .send({ secret: s, app_name: 'Desktop client' })
        .expect(201);
      expect(res.body).toEqual({ app_id: app.id, redirect_info: null });
      await t.http.get(collect(s)).expect(200);
    });

    it('a short secret → 400, at approval and at collection', async () => {
      const res = await t.http
        .post(APPROVE)
        .set(bearer(userToken))
        .send({ secret: 'short', app_id: app.id })
        .expect(400);
      expect(Object.keys(res.body.errors)).toEqual(['secret']);
      const got = await t.http.get(collect('short')).expect(400);
      expect(Object.keys(got.body.errors)).toEqual(['secret']);
    });

    it('an unknown secret → 404', async () => {
      await t.http.get(collect(secret())).expect(404);
    });

    it('neither app_id nor app_name → 400; unknown name, another domain’s app or the built-in app → 404', async () => {
      const none = await t.http.post(APPROVE).set(bearer(userToken)).send({ secret: secret() }).expect(400);
      expect(none.body).toEqual({ errors: { app_id: 'app_id or app_name is required' } });
      await t.http
        .post(APPROVE)
        .set(bearer(userToken))
        .send({ secret: secret(), app_name: 'no such app' })
        .expect(404);
      const d = await createDomain(t);
      const foreign = await createApp(t, { domainId: d.id });
      await t.http
        .post(APPROVE)
        .set(bearer(userToken))
        .send({ secret: secret(), app_id: foreign.id })
        .expect(404);
      await t.http
        .post(APPROVE)
        .set(bearer(userToken))
        .send({ secret: secret(), app_name: foreign.name })
        .expect(404);
      await t.http
        .post(APPROVE)
        .set(bearer(userToken))
        .send({ secret: secret(), app_name: 'Portcullis sign-in' })
        .expect(404);
    });

    it('a secret approved twice → 409', async () => {
      const s = secret();
      await t.http.post(APPROVE).set(bearer(userToken)).send({ secret: s, app_id: app.id }).expect(201);
      await t.http.post(APPROVE).set(bearer(userToken)).send({ secret: s, app_id: app.id }).expect(409);
    });

    it('approval needs a signed-in caller → 401', async () => {
      const res = await t.http.post(APPROVE).send({ secret: secret(), app_id: app.id }).expect(401);
      expect(res.body).toEqual({ errors: ['Authentication credentials were not provided'] });
    });

    it('an approval not collected in time → 404', async () => {
      const s = secret();
      await t.http.post(APPROVE).set(bearer(userToken)).send({ secret: s, app_id: app.id }).expect(201);
      await t.ds.query(
        "UPDATE external_auth_requests SET expires = now() - interval '1 second' WHERE app_id = $1",
        [app.id],
      );
      await t.http.get(collect(s)).expect(404);
    });

    it('parallel collections hand out one token', async () => {
      const s = secret();
      await t.http.post(APPROVE).set(bearer(userToken)).send({ secret: s, app_id: app.id }).expect(201);
      const results = await Promise.all(Array.from({ length: 5 }, () => t.http.get(collect(s))));
      expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404]);
    });

    it('a scoped OAuth token cannot mint itself an unscoped token → 403; user_impersonation may', async () => {
      const oauthApp = await createApp(t, {
        type: 'OAUTH',
        clientType: 'confidential',
        scopes: ['assets:read'],
      });
      const scoped = await tokenFor(t, user, { kind: 'OAUTH', appId: oauthApp.id, scopes: ['assets:read'] });
      const res = await t.http
        .post(APPROVE)
        .set(bearer(scoped.token))
        .send({ secret: secret(), app_id: app.id })
        .expect(403);
      expect(res.body).toEqual({ errors: ['Missing scope: user_impersonation'] });
      await t.http
        .post(INSTANCE)
        .set(bearer(scoped.token))
        .send({ app_id: app.id, id: randomUUID() })
        .expect(403);
      const full = await tokenFor(t, user, {
        kind: 'OAUTH',
        appId: oauthApp.id,
        scopes: ['user_impersonation'],
      });
      await t.http
        .post(APPROVE)
        .set(bearer(full.token))
        .send({ secret: secret(), app_id: app.id })
        .expect(201);
    });
  });

  describe('approved app instances', () => {
    it('approve → 201; collect once → 200 with a working token; DELETE → 204 revokes it', async () => {
      const id = randomUUID();
      const created = await t.http
        .post(INSTANCE)
        .set(bearer(userToken))
        .send({ app_id: app.id, id, date_created: '2000-01-01T00:00:00Z' })
        .expect(201);
      expect(created.body).toEqual({ id, app_id: app.id, date_created: expect.any(String) });
      expect(new Date(created.body.date_created).getFullYear()).toBeGreaterThan(2000);

      const got = await t.http.get(instance(id)).set(bearer(userToken)).expect(200);
      expect(got.body).toEqual({
        app_id: app.id,
        token: expect.any(String),
        date_created: expect.any(String),
        redirect_info: null,
      });
      const v = await t.http.get(VALIDATE).set(bearer(got.body.token)).expect(200);
      expect(v.body).toMatchObject({ user_id: user.id, app_id: app.id });
      await t.http.get(instance(id)).set(bearer(userToken)).expect(404);

      const del = await t.http.delete(instance(id)).set(bearer(userToken)).expect(204);
      expect(del.text).toBe('');
      const after = await t.http.get(VALIDATE).set(bearer(got.body.token)).expect(401);
      expect(after.body).toEqual({ errors: ['Token has been revoked'] });
      await t.http.delete(instance(id)).set(bearer(userToken)).expect(404);
    });

    it('the same instance id twice → 409, and the first approval is left untouched', async () => {
      const id = randomUUID();
      await t.http.post(INSTANCE).set(bearer(userToken)).send({ app_id: app.id, id }).expect(201);
      const res = await t.http.post(INSTANCE).set(bearer(userToken)).send({ app_id: app.id, id }).expect(409);
      expect(res.body).toEqual({ errors: ['This instance is already approved'] });
      // someone else, in another domain, re-approving the id must not take the instance over
      const d = await createDomain(t);
      const intruder = await createUser(t, { domainId: d.id });
      const intruderApp = await createApp(t, { domainId: d.id });
      await t.http
        .post(INSTANCE)
        .set(bearer((await tokenFor(t, intruder)).token))
        .send({ app_id: intruderApp.id, id })
        .expect(409);
      const got = await t.http.get(instance(id)).set(bearer(userToken)).expect(200);
      expect(got.body.app_id).toBe(app.id);
      const v = await t.http.get(VALIDATE).set(bearer(got.body.token)).expect(200);
      expect(v.body).toMatchObject({ user_id: user.id, system_domain_id: t.domainId });
    });

    it('validation: malformed body ids → 400, path ids → 404; OAuth app → 400; another domain’s app → 404', async () => {
      const bad = await t.http
        .post(INSTANCE)
        .set(bearer(userToken))
        .send({ app_id: 'x', id: 'y' })
        .expect(400);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['app_id', 'id']);
      const g = await t.http.get(instance('not-a-uuid')).set(bearer(userToken)).expect(404);
      expect(g.body).toEqual({ errors: ['Approved instance not found'] });
      await t.http.delete(instance('not-a-uuid')).set(bearer(userToken)).expect(404);
      const oauth = await createApp(t, {
        type: 'OAUTH',
        clientType: 'public',
        redirectUris: ['https://x.example/cb'],
      });
      await t.http
        .post(INSTANCE)
        .set(bearer(userToken))
        .send({ app_id: oauth.id, id: randomUUID() })
        .expect(400);
      const foreign = await createApp(t, { domainId: (await createDomain(t)).id });
      await t.http
        .post(INSTANCE)
        .set(bearer(userToken))
        .send({ app_id: foreign.id, id: randomUUID() })
        .expect(404);
    });

    it('withdrawal: another non-administrator → 404 (as unknown); an administrator → 204, empty; another domain → 404', async () => {
      const id = randomUUID();
      await t.http.post(INSTANCE).set(bearer(userToken)).send({ app_id: app.id, id }).expect(201);
      const { token } = (await t.http.get(instance(id)).set(bearer(userToken)).expect(200)).body;
      const stranger = (await tokenFor(t, await createUser(t))).token;
      const refused = await t.http.delete(instance(id)).set(bearer(stranger)).expect(404);
      const unknown = await t.http.delete(instance(randomUUID())).set(bearer(stranger)).expect(404);
      expect(refused.body).toEqual(unknown.body);
      const d = await createDomain(t);
      const foreignAdmin = (await tokenFor(t, await createUser(t, { domainId: d.id, isAdmin: true }))).token;
      await t.http.delete(instance(id)).set(bearer(foreignAdmin)).expect(404);
      await t.http.get(VALIDATE).set(bearer(token)).expect(200);
      const admin = (await tokenFor(t, await createUser(t, { isAdmin: true }))).token;
      const del = await t.http.delete(instance(id)).set(bearer(admin)).expect(204);
      expect(del.text).toBe('');
      expect(del.headers['content-type']).toBeUndefined();
      await t.http.get(VALIDATE).set(bearer(token)).expect(401);
    });
  });

  describe('collecting an approved instance: the approver only, in the approval’s domain', () => {
    const NOT_FOUND = { errors: ['Pending approval not found'] };
    const approve = async (token = userToken, appId = app.id) => {
      const id = randomUUID();
      await t.http.post(INSTANCE).set(bearer(token)).send({ app_id: appId, id }).expect(201);
      return id;
    };
    const tokenCount = async (): Promise<number> =>
      (await t.ds.query('SELECT count(*)::int AS n FROM tokens'))[0].n as number;

    it('anonymous → 401; the approval stays collectable', async () => {
      const id = await approve();
      const res = await t.http.get(instance(id)).expect(401);
      expect(res.body).toEqual({ errors: ['Authentication credentials were not provided'] });
      await t.http.get(instance(id)).set(bearer(userToken)).expect(200);
    });

    it('anyone but the approver → the 404 of an unknown id, nothing issued; the approver → 200 once, then 404', async () => {
      const id = await approve();
      const unknown = await t.http.get(instance(randomUUID())).set(bearer(userToken)).expect(404);
      expect(unknown.body).toEqual(NOT_FOUND);
      const other = await createDomain(t);
      const callers = {
        'another user of the domain': await createUser(t),
        'an administrator of the domain': await createUser(t, { isAdmin: true }),
        'a super administrator': await createUser(t, { isSuperAdmin: true, isAdmin: true }),
        'a user of another domain': await createUser(t, { domainId: other.id }),
        'an administrator of another domain': await createUser(t, { domainId: other.id, isAdmin: true }),
      };
      const before = await tokenCount();
      for (const [who, u] of Object.entries(callers)) {
        const { token } = await tokenFor(t, u);
        const res = await t.http.get(instance(id)).set(bearer(token));
        expect({ who, status: res.status, body: res.body }).toEqual({ who, status: 404, body: NOT_FOUND });
      }
      // minted for the collection: only what tokenFor issued above, nothing by the route
      expect(await tokenCount()).toBe(before + Object.keys(callers).length);

      const got = await t.http.get(instance(id)).set(bearer(userToken)).expect(200);
      const v = await t.http.get(VALIDATE).set(bearer(got.body.token)).expect(200);
      expect(v.body).toMatchObject({ user_id: user.id, app_id: app.id, system_domain_id: t.domainId });
      const replay = await t.http.get(instance(id)).set(bearer(userToken)).expect(404);
      expect(replay.body).toEqual(NOT_FOUND);
    });

    it('the approver signed in to another of their domains → 404', async () => {
      const other = await createDomain(t);
      const both = await createUser(t, { alsoIn: [other.id] });
      const id = await approve((await tokenFor(t, both)).token);
      const elsewhere = (await tokenFor(t, both, { domainId: other.id })).token;
      const res = await t.http.get(instance(id)).set(bearer(elsewhere)).expect(404);
      expect(res.body).toEqual(NOT_FOUND);
      await t.http
        .get(instance(id))
        .set(bearer((await tokenFor(t, both)).token))
        .expect(200);
    });

    it('parallel collections by the approver hand out one token', async () => {
      const id = await approve();
      const results = await Promise.all(
        Array.from({ length: 5 }, () => t.http.get(instance(id)).set(bearer(userToken))),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404]);
    });

    it('a scoped OAuth token of the approver → 403; user_impersonation may collect', async () => {
      const oauthApp = await createApp(t, {
        type: 'OAUTH',
        clientType: 'confidential',
        scopes: ['assets:read'],
      });
      const id = await approve();
      const scoped = await tokenFor(t, user, { kind: 'OAUTH', appId: oauthApp.id, scopes: ['assets:read'] });
      const res = await t.http.get(instance(id)).set(bearer(scoped.token)).expect(403);
      expect(res.body).toEqual({ errors: ['Missing scope: user_impersonation'] });
      const full = await tokenFor(t, user, {
        kind: 'OAUTH',
        appId: oauthApp.id,
        scopes: ['user_impersonation'],
      });
      await t.http.get(instance(id)).set(bearer(full.token)).expect(200);
    });

    describe('the collected token never carries more than the approver gave', () => {
      let admin: UserEntity;
      let adminToken: string;
      beforeAll(async () => {
        admin = await createUser(t, { isAdmin: true });
        adminToken = (await tokenFor(t, admin)).token;
      });
      const rightsOf = async (token: string) =>
        (await t.http.get(VALIDATE).set(bearer(token)).expect(200)).body as { is_admin: boolean };
      /** A credential of `u` capped to `cap` (as a PAT of an app acting as them would be). */
      const capped = async (u: UserEntity, cap: string[]) =>
        (
          await t.get(TokenIssuer).issue({
            userId: u.id,
            appId: (await createApp(t, { defaultUserId: u.id, actingCap: cap })).id,
            systemDomainId: t.domainId,
            kind: 'PAT',
            rightsCap: cap,
            expires: new Date(Date.now() + 3600_000),
          })
        ).token;

      it('an administrator approving with full rights → the token is an administrator’s', async () => {
        const id = await approve(adminToken);
        const got = await t.http.get(instance(id)).set(bearer(adminToken)).expect(200);
        expect((await rightsOf(got.body.token)).is_admin).toBe(true);
      });

      it('approved through a credential without the administrator rank → the token has none', async () => {
        const id = await approve(await capped(admin, []));
        const got = await t.http.get(instance(id)).set(bearer(adminToken)).expect(200);
        expect((await rightsOf(got.body.token)).is_admin).toBe(false);
      });

      it('collected through a narrower credential → cut to it', async () => {
        const id = await approve(adminToken);
        const got = await t.http
          .get(instance(id))
          .set(bearer(await capped(admin, [])))
          .expect(200);
        expect((await rightsOf(got.body.token)).is_admin).toBe(false);
        const [row] = await t.ds.query(
          'SELECT t.rights_cap FROM tokens t JOIN approved_app_instances i ON i.token_id = t.id WHERE i.id = $1',
          [id],
        );
        expect(row.rights_cap).toEqual([]);
      });

      it('promoted between approval and collection → the token does not gain the rank', async () => {
        const worker = await createUser(t);
        const id = await approve((await tokenFor(t, worker)).token);
        await t.ds
          .getRepository(UserSystemDomainEntity)
          .update({ user_id: worker.id, system_domain_id: t.domainId }, { is_admin: true });
        const promoted = (await tokenFor(t, worker)).token;
        expect((await rightsOf(promoted)).is_admin).toBe(true);
        const got = await t.http.get(instance(id)).set(bearer(promoted)).expect(200);
        expect((await rightsOf(got.body.token)).is_admin).toBe(false);
      });

      it('the app set to act as someone else after the approval → 403, nothing issued', async () => {
        const own = await createApp(t);
        const id = await approve(userToken, own.id);
        await t.ds
          .getRepository(AppEntity)
          .update({ id: own.id }, { default_user_id: admin.id, acting_rights_cap: [] });
        const before = await tokenCount();
        const res = await t.http.get(instance(id)).set(bearer(userToken)).expect(403);
        expect(res.body).toEqual({
          errors: ['This application acts as another user: only that user may approve it'],
        });
        expect(await tokenCount()).toBe(before);
      });
    });
  });
});
