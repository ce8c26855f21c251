import { randomUUID } from 'node:crypto';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedSecret } from '../utils/mail.js';
import { createOAuthApp, obtainTokens, OAUTH, type OAuthApp, refreshGrant } from '../utils/oauth.js';
import { WebhookWorker } from '../../src/delivery/webhooks/webhook-worker.service.js';
import { WebhookReceiver } from '../utils/webhook-receiver.js';

const HOOKS = '/API/notifications/v1/webhooks';
const APPS = '/API/auth/v1/apps';
const USERS = '/API/users/v1/users';
const GROUPS = '/API/users/v1/groups';
const TOKEN = '/API/auth/v1/auth/token';
const LINK = '/API/auth/v1/invitation';
const FAMILIES = ['apps', 'users', 'groups', 'tokens', 'invitations'] as const;

interface Message {
  system_domain_id: string;
  object_id: string | null;
  realm: string | null;
  operation: string;
  event_type: string;
  request_id: string | null;
  data: Record<string, unknown>;
}

/**
 * Issue 12: every change a webhook can subscribe to writes its event in the change's own transaction. Each
 * change goes through the HTTP API with its own X-Request-Id, and the receiver is asked for the messages
 * carrying that id.
 */
describe('webhook events of the changes the service makes', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let admin: UserEntity;
  let h: Record<string, string>;
  let otherDomain: string;

  const register = async (headers: Record<string, string>, path: string, extra: Record<string, unknown>) =>
    (
      await t.http
        .post(`${HOOKS}/`)
        .set(headers)
        .send({ url: receiver.url(path), status: 'ENABLED', ...extra })
        .expect(201)
    ).body as { id: string };

  /** One API call with a fresh X-Request-Id. */
  const call = async (
    method: 'post' | 'put' | 'patch' | 'delete',
    path: string,
    status: number,
    body?: object,
    headers = h,
  ) => {
    const rid = `req-${randomUUID()}`;
    const req = t.http[method](path).set(headers).set('X-Request-Id', rid);
    const res = await (body ? req.send(body) : req).expect(status);
    expect(res.headers['x-request-id']).toBe(rid);
    return { res, rid };
  };

  const messages = (path: string, rid?: string): Message[] =>
    receiver
      .at(path)
      .map((r) => JSON.parse(r.body) as Message)
      .filter((m) => rid === undefined || m.request_id === rid);

  /** The messages of one request at one receiver path: waits for `count`, then for any stray duplicate. */
  const received = async (path: string, rid: string, count = 1): Promise<Message[]> => {
    await receiver.waitFor(() => messages(path, rid).length >= count);
    await t.get(WebhookWorker).afterRounds(2); // the worker has looked again since
    const got = messages(path, rid);
    expect(got).toHaveLength(count);
    return got;
  };

  /** What a request wrote to the outbox (any webhook, any domain): nothing for a change that failed. */
  const eventsOf = async (rid: string): Promise<number> =>
    Number(
      (
        (await t.ds.query('SELECT count(*)::int AS n FROM webhook_events WHERE request_id = $1', [rid])) as {
          n: number;
        }[]
      )[0].n,
    );

  const expectMessage = (m: Message, expected: Partial<Message>) =>
    expect(m).toEqual({
      system_domain_id: t.domainId,
      request_id: expect.any(String),
      data: expect.any(Object),
      ...expected,
    });

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_RETRY_BASE_MS: '20' });
    receiver = await WebhookReceiver.start();
    admin = await createUser(t, { isAdmin: true });
    h = bearer((await tokenFor(t, admin)).token);
    for (const family of FAMILIES) await register(h, `/${family}`, { event_type: family });
    // only the deletions of groups and memberships
    await register(h, '/groups-deletes', { event_type: 'groups', operation: 'delete' });
    // another domain listens to everything of its own
    otherDomain = (await createDomain(t)).id;
    const otherAdmin = await createUser(t, { isAdmin: true, domainId: otherDomain });
    const oh = bearer((await tokenFor(t, otherAdmin)).token);
    for (const family of FAMILIES) await register(oh, `/other/${family}`, { event_type: family });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  describe('apps', () => {
    let appId: string;

    it('create: the app as POST answers it, without the client secret of a confidential client', async () => {
      const { res, rid } = await call('post', `${APPS}/`, 201, {
        name: 'hooked',
        type: 'OAUTH',
        oauth_client_type: 'confidential',
        redirect_uris: ['https://app.example.com/cb'],
      });
      expect(res.body.client_secret).toEqual(expect.any(String));
      appId = res.body.id;
      const [m] = await received('/apps', rid);
      expectMessage(m, {
        event_type: 'apps',
        realm: 'app',
        operation: 'create',
        object_id: appId,
        request_id: rid,
      });
      expect(m.data).not.toHaveProperty('client_secret');
      expect(m.data).not.toHaveProperty('client_secret_hash');
      expect(JSON.stringify(m)).not.toContain(res.body.client_secret);
      const { client_secret: _secret, ...shown } = res.body;
      expect(m.data).toEqual(shown);
    });

    it('update: the app as PATCH answers it; a new secret (public → confidential) stays out too', async () => {
      const { res, rid } = await call('patch', `${APPS}/${appId}/`, 200, { description: 'changed' });
      const [m] = await received('/apps', rid);
      expectMessage(m, {
        event_type: 'apps',
        realm: 'app',
        operation: 'update',
        object_id: appId,
        request_id: rid,
      });
      expect(m.data).toEqual(res.body);
      expect(m.data.description).toBe('changed');

      const pub = await call('post', `${APPS}/`, 201, {
        name: 'spa',
        type: 'OAUTH',
        oauth_client_type: 'public',
        redirect_uris: ['https://spa.example.com/cb'],
      });
      const flip = await call('patch', `${APPS}/${pub.res.body.id}/`, 200, {
        oauth_client_type: 'confidential',
      });
      expect(flip.res.body.client_secret).toEqual(expect.any(String));
      const [f] = await received('/apps', flip.rid);
      expect(f.data).not.toHaveProperty('client_secret');
      expect(JSON.stringify(f)).not.toContain(flip.res.body.client_secret);
    });

    it('a refused change (validation) emits nothing', async () => {
      const { rid } = await call('patch', `${APPS}/${appId}/`, 400, { url: 'ftp://nope' });
      expect(await eventsOf(rid)).toBe(0);
    });

    it('delete: {id}', async () => {
      const { rid } = await call('delete', `${APPS}/${appId}/`, 204);
      const [m] = await received('/apps', rid);
      expectMessage(m, {
        event_type: 'apps',
        realm: 'app',
        operation: 'delete',
        object_id: appId,
        request_id: rid,
        data: { id: appId },
      });
    });
  });

  describe('users', () => {
    let userId: string;

    it('create: the user as POST answers it, never the password or its hash', async () => {
      const { res, rid } = await call('post', `${USERS}/`, 201, {
        email: `hooked-${randomUUID().slice(0, 8)}@example.com`,
        first_name: 'Hook',
        password: 'a-long-enough-password',
      });
      userId = res.body.id;
      const [m] = await received('/users', rid);
      expectMessage(m, {
        event_type: 'users',
        realm: 'user',
        operation: 'create',
        object_id: userId,
        request_id: rid,
      });
      expect(m.data).toEqual(res.body);
      expect(JSON.stringify(m)).not.toContain('a-long-enough-password');
      expect(m.data).not.toHaveProperty('password_hash');
    });

    it('a duplicate email (409) and a validation error (400) emit nothing', async () => {
      const dup = await call('post', `${USERS}/`, 409, { email: admin.email });
      const bad = await call('post', `${USERS}/`, 400, { email: 'not-an-email' });
      expect(await eventsOf(dup.rid)).toBe(0);
      expect(await eventsOf(bad.rid)).toBe(0);
    });

    it('update: the user as PATCH answers it; a PATCH that changes nothing emits nothing', async () => {
      const { res, rid } = await call('patch', `${USERS}/${userId}/`, 200, { last_name: 'Renamed' });
      const [m] = await received('/users', rid);
      expectMessage(m, {
        event_type: 'users',
        realm: 'user',
        operation: 'update',
        object_id: userId,
        request_id: rid,
      });
      expect(m.data).toEqual(res.body);
      const same = await call('patch', `${USERS}/${userId}/`, 200, { last_name: 'Renamed' });
      expect(await eventsOf(same.rid)).toBe(0);
    });

    it('delete (removal from the domain): {id}', async () => {
      const { rid } = await call('delete', `${USERS}/${userId}/`, 204);
      const [m] = await received('/users', rid);
      expectMessage(m, {
        event_type: 'users',
        realm: 'user',
        operation: 'delete',
        object_id: userId,
        request_id: rid,
        data: { id: userId },
      });
    });
  });

  describe('groups and their members', () => {
    let groupId: string;
    let member: UserEntity;

    beforeAll(async () => {
      member = await createUser(t);
    });

    it('create: the group as POST answers it', async () => {
      const { res, rid } = await call('post', `${GROUPS}/`, 201, { name: `g-${randomUUID()}`, roles: [] });
      groupId = res.body.id;
      const [m] = await received('/groups', rid);
      expectMessage(m, {
        event_type: 'groups',
        realm: 'group',
        operation: 'create',
        object_id: groupId,
        request_id: rid,
      });
      expect(m.data).toEqual(res.body);
    });

    it('a duplicate name (409) emits nothing', async () => {
      const taken = (await t.http.get(`${GROUPS}/${groupId}/`).set(h).expect(200)).body.name as string;
      const { rid } = await call('post', `${GROUPS}/`, 409, { name: taken, roles: [] });
      expect(await eventsOf(rid)).toBe(0);
      const other = await call('post', `${GROUPS}/`, 201, { name: `g-${randomUUID()}`, roles: [] });
      const rename = await call('patch', `${GROUPS}/${other.res.body.id}/`, 409, { name: taken });
      expect(await eventsOf(rename.rid)).toBe(0);
    });

    it('update: the group as PATCH answers it', async () => {
      const { res, rid } = await call('patch', `${GROUPS}/${groupId}/`, 200, { description: 'watched' });
      const [m] = await received('/groups', rid);
      expectMessage(m, {
        event_type: 'groups',
        realm: 'group',
        operation: 'update',
        object_id: groupId,
        request_id: rid,
      });
      expect(m.data).toEqual(res.body);
    });

    it('member added (group_member create, object_id = the group); adding again emits nothing', async () => {
      const { rid } = await call('post', `${GROUPS}/${groupId}/members/${member.id}/`, 201);
      const [m] = await received('/groups', rid);
      expectMessage(m, {
        event_type: 'groups',
        realm: 'group_member',
        operation: 'create',
        object_id: groupId,
        request_id: rid,
        data: { group_id: groupId, user_id: member.id },
      });
      const again = await call('post', `${GROUPS}/${groupId}/members/${member.id}/`, 201);
      expect(await eventsOf(again.rid)).toBe(0);
    });

    it('member removed (group_member delete); removing a non-member (404) emits nothing', async () => {
      const { rid } = await call('delete', `${GROUPS}/${groupId}/members/${member.id}/`, 204);
      const [m] = await received('/groups', rid);
      expectMessage(m, {
        event_type: 'groups',
        realm: 'group_member',
        operation: 'delete',
        object_id: groupId,
        request_id: rid,
        data: { group_id: groupId, user_id: member.id },
      });
      const gone = await call('delete', `${GROUPS}/${groupId}/members/${member.id}/`, 404);
      expect(await eventsOf(gone.rid)).toBe(0);
    });

    it('delete: {id}', async () => {
      const { rid } = await call('delete', `${GROUPS}/${groupId}/`, 204);
      const [m] = await received('/groups', rid);
      expectMessage(m, {
        event_type: 'groups',
        realm: 'group',
        operation: 'delete',
        object_id: groupId,
        request_id: rid,
        data: { id: groupId },
      });
    });

    it('a webhook filtered on operation=delete got the deletions only', async () => {
      const extra = await call('post', `${GROUPS}/`, 201, { name: `g-${randomUUID()}`, roles: [] });
      expect(await eventsOf(extra.rid)).toBe(1); // the create went to /groups only
      const removed = await call('delete', `${GROUPS}/${extra.res.body.id}/`, 204);
      await received('/groups-deletes', removed.rid);
      const ops = messages('/groups-deletes').map((m) => `${m.realm}:${m.operation}`);
      expect(ops.length).toBeGreaterThanOrEqual(3);
      expect(new Set(ops)).toEqual(new Set(['group:delete', 'group_member:delete']));
    });
  });

  describe('tokens revoked', () => {
    it('DELETE token/ (the presented one): tokens/token/revoke with the record, never the JWT', async () => {
      const user = await createUser(t);
      const own = await tokenFor(t, user);
      const { rid } = await call('delete', `${TOKEN}/`, 200, undefined, bearer(own.token));
      const [m] = await received('/tokens', rid);
      expectMessage(m, {
        event_type: 'tokens',
        realm: 'token',
        operation: 'revoke',
        object_id: own.id,
        request_id: rid,
      });
      expect(m.data).toMatchObject({
        id: own.id,
        user_id: user.id,
        app_id: own.appId,
        system_domain_id: t.domainId,
        kind: 'LOGIN',
      });
      expect(m.data.revoked_at).toEqual(expect.any(String));
      expect(m.data).not.toHaveProperty('token');
      expect(m.data).not.toHaveProperty('token_hash');
      expect(JSON.stringify(m)).not.toContain(own.token);
    });

    it('DELETE token/{id}/ by an administrator; revoking it again emits nothing', async () => {
      const other = await tokenFor(t, await createUser(t));
      const { rid } = await call('delete', `${TOKEN}/${other.id}/`, 200);
      const [m] = await received('/tokens', rid);
      expectMessage(m, {
        event_type: 'tokens',
        realm: 'token',
        operation: 'revoke',
        object_id: other.id,
        request_id: rid,
      });
      const again = await call('delete', `${TOKEN}/${other.id}/`, 200);
      expect(await eventsOf(again.rid)).toBe(0);
    });

    it('PUT token/ (renewal) revokes the presented token: one event, for the old token', async () => {
      const old = await tokenFor(t, await createUser(t));
      const { res, rid } = await call('put', `${TOKEN}/`, 200, undefined, bearer(old.token));
      const [m] = await received('/tokens', rid);
      expectMessage(m, {
        event_type: 'tokens',
        realm: 'token',
        operation: 'revoke',
        object_id: old.id,
        request_id: rid,
      });
      expect(JSON.stringify(m)).not.toContain(res.body.token);
    });

    it('deactivating a user revokes their tokens: a users update and one revoke per live token', async () => {
      const user = await createUser(t);
      const a = await tokenFor(t, user);
      const b = await tokenFor(t, user);
      const { rid } = await call('patch', `${USERS}/${user.id}/`, 200, { status: 'INACTIVE' });
      const revoked = await received('/tokens', rid, 2);
      expect(revoked.map((m) => m.object_id).sort()).toEqual([a.id, b.id].sort());
      const [u] = await received('/users', rid);
      expect(u).toMatchObject({ realm: 'user', operation: 'update', object_id: user.id });
    });
  });

  /**
   * Routes without a caller (no AuthContext): the controller hands the request's id down. Each request is
   * made with its own X-Request-Id, and its revocations must carry it.
   */
  describe('tokens revoked on public OAuth routes', () => {
    let app: OAuthApp;
    let user: UserEntity;
    const tokenId = (jwt: string) =>
      (JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as { id: string }).id;
    /** A form POST (the OAuth endpoints) with a fresh X-Request-Id. */
    const formCall = async (path: string, form: Record<string, string>, status: number) => {
      const rid = `req-${randomUUID()}`;
      const res = await t.http.post(path).set('X-Request-Id', rid).type('form').send(form).expect(status);
      expect(res.headers['x-request-id']).toBe(rid);
      return { res, rid };
    };

    beforeAll(async () => {
      app = await createOAuthApp(t, { kind: 'server' });
      user = await createUser(t);
    });

    it('RFC 7009 revocation of an access token: tokens/token/revoke with the request id', async () => {
      const { access_token } = await obtainTokens(t, app, user);
      const { rid } = await formCall(
        OAUTH.revoke,
        { token: access_token, client_id: app.id, client_secret: app.secret as string },
        200,
      );
      const [m] = await received('/tokens', rid);
      expectMessage(m, {
        event_type: 'tokens',
        realm: 'token',
        operation: 'revoke',
        object_id: tokenId(access_token),
        request_id: rid,
      });
      expect(JSON.stringify(m)).not.toContain(access_token);
    });

    it('RFC 7009 revocation of a refresh token: the grant’s access token, with the request id', async () => {
      const { access_token, refresh_token } = await obtainTokens(t, app, user);
      const { rid } = await formCall(
        OAUTH.revoke,
        { token: refresh_token, client_id: app.id, client_secret: app.secret as string },
        200,
      );
      const [m] = await received('/tokens', rid);
      expect(m).toMatchObject({ operation: 'revoke', object_id: tokenId(access_token), request_id: rid });
    });

    it('a refresh-token replay at the token endpoint revokes the grant: every access token, with its id', async () => {
      const first = await obtainTokens(t, app, user);
      const rotated = await refreshGrant(t, app, first.refresh_token).expect(200);
      const { rid } = await formCall(
        OAUTH.token,
        {
          grant_type: 'refresh_token',
          client_id: app.id,
          client_secret: app.secret as string,
          refresh_token: first.refresh_token,
        },
        400,
      );
      const revoked = await received('/tokens', rid, 2);
      expect(revoked.map((m) => m.object_id).sort()).toEqual(
        [tokenId(first.access_token), tokenId(rotated.body.access_token as string)].sort(),
      );
    });

    it('DELETE refresh/token/ (possession is the authority): the grant’s access token, with the request id', async () => {
      const { access_token, refresh_token } = await obtainTokens(t, app, user);
      const rid = `req-${randomUUID()}`;
      await t.http.delete(OAUTH.refreshRevoke).set('X-Request-Id', rid).send({ refresh_token }).expect(200);
      const [m] = await received('/tokens', rid);
      expect(m).toMatchObject({ operation: 'revoke', object_id: tokenId(access_token), request_id: rid });
    });
  });

  describe('invitations', () => {
    it('created, accepted (with the new user of the domain) and withdrawn; never the link', async () => {
      const email = `invited-${randomUUID().slice(0, 8)}@example.com`;
      const invited = await call('post', `${USERS}/invite/`, 201, { email });
      const [c] = await received('/invitations', invited.rid);
      expectMessage(c, {
        event_type: 'invitations',
        realm: 'invitation',
        operation: 'create',
        object_id: invited.res.body.id,
        request_id: invited.rid,
      });
      expect(c.data).toEqual(invited.res.body);
      const secret = await mailedSecret(t, email, 'invitation');
      expect(JSON.stringify(c)).not.toContain(secret);

      const accepted = await call(
        'put',
        `${LINK}/complete/${secret}/`,
        200,
        {
          password: 'a-long-enough-password',
          repeat_password: 'a-long-enough-password',
        },
        {},
      );
      const [a] = await received('/invitations', accepted.rid);
      expectMessage(a, {
        event_type: 'invitations',
        realm: 'invitation',
        operation: 'update',
        object_id: invited.res.body.id,
        request_id: accepted.rid,
      });
      expect(a.data).toMatchObject({
        id: invited.res.body.id,
        user_id: accepted.res.body.user_id,
        accepted_at: expect.any(String),
      });
      expect(JSON.stringify(a)).not.toContain(secret);
      const [u] = await received('/users', accepted.rid);
      expectMessage(u, {
        event_type: 'users',
        realm: 'user',
        operation: 'create',
        object_id: accepted.res.body.user_id,
        request_id: accepted.rid,
      });
      expect(u.data).toMatchObject({ id: accepted.res.body.user_id, email, system_domain_id: t.domainId });

      const second = await call('post', `${USERS}/invite/`, 201, {
        email: `w-${randomUUID().slice(0, 8)}@example.com`,
      });
      const withdrawn = await call('delete', `${USERS}/invitations/${second.res.body.id}/`, 204);
      const [w] = await received('/invitations', withdrawn.rid);
      expectMessage(w, {
        event_type: 'invitations',
        realm: 'invitation',
        operation: 'delete',
        object_id: second.res.body.id,
        request_id: withdrawn.rid,
        data: { id: second.res.body.id },
      });
      const gone = await call('delete', `${USERS}/invitations/${second.res.body.id}/`, 404);
      expect(await eventsOf(gone.rid)).toBe(0);
    });

    it('inviting an email again replaces the pending invitation: a delete for the old one, a create', async () => {
      const email = `again-${randomUUID().slice(0, 8)}@example.com`;
      const first = await call('post', `${USERS}/invite/`, 201, { email });
      const second = await call('post', `${USERS}/invite/`, 201, { email });
      const got = await received('/invitations', second.rid, 2);
      expect(got.map((m) => `${m.operation}:${m.object_id}`).sort()).toEqual(
        [`create:${second.res.body.id}`, `delete:${first.res.body.id}`].sort(),
      );
    });
  });

  it('a webhook of another domain received nothing of these changes', async () => {
    for (const family of FAMILIES) expect(receiver.at(`/other/${family}`)).toEqual([]);
    const [row] = (await t.ds.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE w.system_domain_id = $1`,
      [otherDomain],
    )) as { n: number }[];
    expect(Number(row.n)).toBe(0);
  });
});
