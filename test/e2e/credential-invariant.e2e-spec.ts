import { randomUUID } from 'node:crypto';
import type { AuthContext } from '../../src/base/common/auth/auth-context.js';
import { excess } from '../../src/base/common/auth/rights.js';
import { UserSystemDomainEntity } from '../../src/base/model/user-system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { type JwtClaims, TokensService } from '../../src/credentials/tokens/tokens.service.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, login, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const APPS = '/API/auth/v1/apps';
const USERS = '/API/users/v1/users';
const TOKEN = '/API/auth/v1/oauth/token/';

type Rank = 'super' | 'admin' | 'user';
type TargetKind = Rank | 'self' | 'adminElsewhere' | 'roleful';
type Path = 'create PAT app' | 'create backend service' | 'patch acting user' | 'issue PAT' | 'external auth';

/**
 * The credential invariant (docs/security.md): a caller can only obtain, directly or through an app, a
 * credential whose rights are within its own. Every combination of caller rank × acting user × minting path
 * either is refused or yields a token whose rights, as the request guard computes them, are within the
 * caller's.
 */
describe('credential invariant', () => {
  let t: TestApp;
  let root: UserEntity;

  beforeAll(async () => {
    t = await createTestApp();
    root = await createUser(t, { isSuperAdmin: true, isAdmin: true });
  });
  afterAll(() => t.close());

  /** The client_credentials grant of a backend service; the access token, or null when refused. */
  async function clientCredentialsToken(app: { id: string; client_secret?: string }): Promise<string | null> {
    const res = await t.http
      .post(TOKEN)
      .type('form')
      .send({ grant_type: 'client_credentials', client_id: app.id, client_secret: app.client_secret ?? '' });
    return res.status === 200 ? (res.body.access_token as string) : null;
  }

  /** What a token may do, exactly as the guard computes it on a request. */
  async function rightsOfToken(token: string): Promise<AuthContext> {
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as JwtClaims;
    return t.get(TokensService).authenticate(claims, token, 'credential-invariant');
  }

  async function caller(rank: Rank): Promise<{ user: UserEntity; token: string }> {
    const user = await createUser(t, {
      isSuperAdmin: rank === 'super',
      isAdmin: rank === 'admin',
      roles: rank === 'user' ? ['can_read_apps', 'can_read_users'] : undefined,
    });
    return { user, token: (await tokenFor(t, user)).token };
  }

  async function target(kind: TargetKind, self: UserEntity): Promise<UserEntity> {
    if (kind === 'self') return self;
    if (kind === 'adminElsewhere') {
      const other = await createDomain(t);
      const u = await createUser(t, { domainId: other.id, isAdmin: true });
      await t.ds
        .getRepository(UserSystemDomainEntity)
        .insert({ user_id: u.id, system_domain_id: t.domainId });
      return u;
    }
    if (kind === 'roleful') return createUser(t, { roles: ['can_write_users', 'can_delete_users'] });
    return createUser(t, { isSuperAdmin: kind === 'super', isAdmin: kind === 'admin' });
  }

  /** An app set up by a super administrator (who holds everything), acting as `actingUserId`. */
  async function appBySuper(body: Record<string, unknown>): Promise<{ id: string; client_secret?: string }> {
    const res = await t.http
      .post(`${APPS}/`)
      .set(bearer((await tokenFor(t, root)).token))
      .send({ name: `app-${randomUUID().slice(0, 6)}`, ...body })
      .expect(201);
    return res.body;
  }

  const backend = (userId: string | null) => ({
    type: 'OAUTH',
    oauth_client_type: 'confidential',
    default_user_id: userId,
    allowed_scopes: ['user_impersonation'],
    ...(userId ? {} : { redirect_uris: ['https://client.example/cb'] }),
  });

  /** Runs one path; returns the minted token, or null when the service refused (4xx). */
  async function mint(path: Path, who: { user: UserEntity; token: string }, acting: UserEntity) {
    const h = bearer(who.token);
    const name = `m-${randomUUID().slice(0, 6)}`;
    switch (path) {
      case 'create PAT app': {
        const res = await t.http
          .post(`${APPS}/`)
          .set(h)
          .send({ name, type: 'PAT', default_user_id: acting.id });
        if (res.status !== 201) return expectRefusal(res.status);
        const pat = await t.http.post(`${APPS}/${res.body.id}/token/`).set(h);
        return pat.status === 200 ? (pat.body.token as string) : expectRefusal(pat.status);
      }
      case 'create backend service': {
        const res = await t.http
          .post(`${APPS}/`)
          .set(h)
          .send({ name, ...backend(acting.id) });
        if (res.status !== 201) return expectRefusal(res.status);
        return clientCredentialsToken(res.body);
      }
      case 'patch acting user': {
        const app = await appBySuper(backend(null));
        const res = await t.http.patch(`${APPS}/${app.id}/`).set(h).send({ default_user_id: acting.id });
        if (res.status !== 200) return expectRefusal(res.status);
        return clientCredentialsToken(app);
      }
      case 'issue PAT': {
        const app = await appBySuper({ type: 'PAT', default_user_id: acting.id });
        const pat = await t.http.post(`${APPS}/${app.id}/token/`).set(h);
        return pat.status === 200 ? (pat.body.token as string) : expectRefusal(pat.status);
      }
      case 'external auth': {
        const app = await appBySuper({ type: 'PAT', default_user_id: acting.id });
        const secret = randomUUID();
        const res = await t.http.post(`${APPS}/external/auth/`).set(h).send({ secret, app_id: app.id });
        if (res.status !== 201) return expectRefusal(res.status);
        const got = await t.http.get(`${APPS}/external/auth/${secret}/`).expect(200);
        return got.body.token as string;
      }
    }
  }

  function expectRefusal(status: number): null {
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    return null;
  }

  const RANKS: Rank[] = ['super', 'admin', 'user'];
  const TARGETS: TargetKind[] = ['super', 'admin', 'user', 'roleful', 'adminElsewhere', 'self'];
  const PATHS: Path[] = [
    'create PAT app',
    'create backend service',
    'patch acting user',
    'issue PAT',
    'external auth',
  ];
  const matrix = RANKS.flatMap((rank) =>
    TARGETS.flatMap((kind) => PATHS.map((path) => [rank, kind, path] as const)),
  );

  it.each(matrix)(
    '%s caller, %s acting user, %s: refused or within the caller’s rights',
    async (rank, kind, path) => {
      const who = await caller(rank);
      const acting = await target(kind, who.user);
      const token = await mint(path, who, acting);
      if (token === null) return;
      const minted = await rightsOfToken(token);
      const own = await rightsOfToken(who.token);
      expect({ path, beyond: excess(minted, own) }).toEqual({ path, beyond: [] });
      expect(minted.systemDomainId).toBe(t.domainId);
    },
  );

  it('covers the cases that used to escalate: each is now refused', async () => {
    const admin = await caller('admin');
    const superUser = await createUser(t, { isSuperAdmin: true });
    for (const path of [
      'create PAT app',
      'create backend service',
      'patch acting user',
      'issue PAT',
    ] as const) {
      expect(await mint(path, admin, superUser)).toBeNull();
    }
  });

  describe('regression: a domain administrator through an app acting as a super administrator', () => {
    it('cannot get the token, become super administrator, reset a super administrator’s password or reach another domain', async () => {
      const admin = await caller('admin');
      const h = bearer(admin.token);
      const victim = await createUser(t, { isSuperAdmin: true });
      const other = await createDomain(t);
      const bridge = await createUser(t, { domainId: other.id, isAdmin: true });
      await t.ds
        .getRepository(UserSystemDomainEntity)
        .insert({ user_id: bridge.id, system_domain_id: t.domainId });

      // 1. an app acting as a super administrator
      const created = await t.http
        .post(`${APPS}/`)
        .set(h)
        .send({ name: 'x', type: 'PAT', default_user_id: victim.id });
      expect(created.status).toBe(403);
      expect(created.body.errors[0]).toMatch(/super administrator/);
      // … or a backend service doing the same
      const backendRes = await t.http
        .post(`${APPS}/`)
        .set(h)
        .send({ name: 'y', ...backend(victim.id) });
      expect(backendRes.status).toBe(403);
      // … or an app of its own pointed at the victim afterwards
      const own = await t.http.post(`${APPS}/`).set(h).send({ name: 'z', type: 'PAT' }).expect(201);
      await t.http.patch(`${APPS}/${own.body.id}/`).set(h).send({ default_user_id: victim.id }).expect(403);
      // … or a PAT of an app a super administrator set up
      const superApp = await appBySuper({ type: 'PAT', default_user_id: victim.id });
      await t.http.post(`${APPS}/${superApp.id}/token/`).set(h).expect(403);

      // 2. the administrator's own rights stay what they were
      await t.http.patch(`${USERS}/${admin.user.id}/`).set(h).send({ is_super_admin: true }).expect(200);
      expect(
        (await t.ds.getRepository(UserEntity).findOneByOrFail({ id: admin.user.id })).is_super_admin,
      ).toBe(false);
      await t.http.patch(`${USERS}/${victim.id}/`).set(h).send({ password: 'taken-over-1' }).expect(403);
      await login(t, victim.email, DEFAULT_PASSWORD);

      // 3. a user who administers another domain is no bridge either
      await t.http
        .post(`${APPS}/`)
        .set(h)
        .send({ name: 'b', type: 'PAT', default_user_id: bridge.id })
        .expect(403);
      await t.http.patch(`${USERS}/${bridge.id}/`).set(h).send({ password: 'taken-over-2' }).expect(403);
      await login(t, bridge.email, DEFAULT_PASSWORD);
    });
  });

  describe('the acting user’s rank rises after the app was set up', () => {
    it('the app’s tokens, old and new, do not gain it until an administrator holding it sets the user again', async () => {
      const admin = await caller('admin');
      const h = bearer(admin.token);
      const worker = await createUser(t, { roles: ['can_read_apps'] });
      const pat = await t.http
        .post(`${APPS}/`)
        .set(h)
        .send({ name: 'w', type: 'PAT', default_user_id: worker.id })
        .expect(201);
      const before = (await t.http.post(`${APPS}/${pat.body.id}/token/`).set(h).expect(200)).body
        .token as string;
      const svc = await t.http
        .post(`${APPS}/`)
        .set(h)
        .send({ name: 's', ...backend(worker.id) })
        .expect(201);

      await t.ds.getRepository(UserEntity).update({ id: worker.id }, { is_super_admin: true });
      await t.ds
        .getRepository(UserSystemDomainEntity)
        .update({ user_id: worker.id, system_domain_id: t.domainId }, { is_admin: true });

      // the worker's own sign-in now carries the new rank …
      expect((await rightsOfToken((await tokenFor(t, worker)).token)).isSuperAdmin).toBe(true);
      // … the tokens of the app do not: the one issued before, a PAT issued after, a client_credentials token
      const afterPat = (
        await t.http
          .post(`${APPS}/${pat.body.id}/token/`)
          .set(bearer((await tokenFor(t, root)).token))
          .expect(200)
      ).body.token as string;
      const granted = (await clientCredentialsToken(svc.body)) as string;
      for (const token of [before, afterPat, granted]) {
        const r = await rightsOfToken(token);
        expect({ super: r.isSuperAdmin, admin: r.isAdmin, roles: [...r.roles] }).toEqual({
          super: false,
          admin: false,
          roles: ['can_read_apps'],
        });
        const seen = await t.http.get('/API/auth/v1/auth/token/').set(bearer(token)).expect(200);
        expect(seen.body).toMatchObject({ is_admin: false, is_super_admin: false });
      }
      // a super administrator names the acting user again: new tokens follow, under a new secret that only
      // they received (the administrator who set the service up holds the old one, which stops working)
      const renamed = await t.http
        .patch(`${APPS}/${svc.body.id}/`)
        .set(bearer((await tokenFor(t, root)).token))
        .send({ default_user_id: worker.id })
        .expect(200);
      expect(renamed.body.client_secret).toEqual(expect.any(String));
      expect(await clientCredentialsToken(svc.body)).toBeNull();
      const regranted = (await clientCredentialsToken({
        id: svc.body.id,
        client_secret: renamed.body.client_secret,
      })) as string;
      expect((await rightsOfToken(regranted)).isSuperAdmin).toBe(true);
    });

    it('a demotion counts at once, and renewing a capped token keeps its ceiling', async () => {
      const admin = await caller('admin');
      const h = bearer(admin.token);
      const worker = await createUser(t, { isAdmin: true });
      const app = await t.http
        .post(`${APPS}/`)
        .set(h)
        .send({ name: 'd', type: 'PAT', default_user_id: worker.id })
        .expect(201);
      const token = (await t.http.post(`${APPS}/${app.body.id}/token/`).set(h).expect(200)).body
        .token as string;
      expect((await rightsOfToken(token)).isAdmin).toBe(true);
      await t.ds.getRepository(UserEntity).update({ id: worker.id }, { is_super_admin: true });
      const renewed = await t.http.post('/API/auth/v1/auth/token/').set(bearer(token)).expect(201);
      expect((await rightsOfToken(renewed.body.token)).isSuperAdmin).toBe(false);
      await t.ds
        .getRepository(UserSystemDomainEntity)
        .update({ user_id: worker.id, system_domain_id: t.domainId }, { is_admin: false });
      await t.ds.getRepository(UserEntity).update({ id: worker.id }, { is_super_admin: false });
      expect((await rightsOfToken(token)).isAdmin).toBe(false);
    });
  });

  describe('external auth', () => {
    it('only the acting user may approve an app that acts as someone; the token is within the approver’s rights', async () => {
      const worker = await createUser(t, { roles: ['can_read_apps'] });
      const app = await appBySuper({ type: 'PAT', default_user_id: worker.id });
      const stranger = await caller('user');
      const refused = await t.http
        .post(`${APPS}/external/auth/`)
        .set(bearer(stranger.token))
        .send({ secret: randomUUID(), app_id: app.id })
        .expect(403);
      expect(refused.body).toEqual({
        errors: ['This application acts as another user: only that user may approve it'],
      });
      const secret = randomUUID();
      await t.http
        .post(`${APPS}/external/auth/`)
        .set(bearer((await tokenFor(t, worker)).token))
        .send({ secret, app_id: app.id })
        .expect(201);
      const got = await t.http.get(`${APPS}/external/auth/${secret}/`).expect(200);
      const r = await rightsOfToken(got.body.token);
      expect(r.userId).toBe(worker.id);
      expect([...r.roles]).toEqual(['can_read_apps']);
    });
  });

  it('a token minted for an app cannot change its user’s email or password', async () => {
    const worker = await createUser(t, { isAdmin: true });
    const app = await appBySuper({ type: 'PAT', default_user_id: worker.id });
    const pat = (
      await t.http
        .post(`${APPS}/${app.id}/token/`)
        .set(bearer((await tokenFor(t, root)).token))
        .expect(200)
    ).body.token as string;
    for (const body of [
      { password: 'changed-by-app-1' },
      { email: `x-${randomUUID().slice(0, 6)}@example.com` },
    ]) {
      const res = await t.http.patch(`${USERS}/${worker.id}/`).set(bearer(pat)).send(body).expect(403);
      expect(res.body.errors[0]).toMatch(/cannot change its user’s email or password/);
    }
    await login(t, worker.email, DEFAULT_PASSWORD);
    // the person signed in may
    await t.http
      .patch(`${USERS}/${worker.id}/`)
      .set(bearer((await tokenFor(t, worker)).token))
      .send({ password: 'changed-by-me-1' })
      .expect(200);
  });
});
