import { randomUUID } from 'node:crypto';
import { WIRE_DATE_PATTERN } from '../../src/base/common/http/wire-date.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { WebhookEntity } from '../../src/base/model/webhook.entity.js';
import { WebhookSecrets } from '../../src/delivery/webhooks/webhook-secrets.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const HOOKS = '/API/notifications/v1/webhooks';
const LEGACY = '/API/webhooks/v1/webhooks';

describe('webhooks (API/notifications/v1/webhooks and the older API/webhooks/v1/webhooks)', () => {
  let t: TestApp;
  let admin: UserEntity;
  let h: Record<string, string>;
  const as = async (user: UserEntity) => bearer((await tokenFor(t, user)).token);
  const body = (extra: Record<string, unknown> = {}) => ({
    url: 'https://hooks.example.com/portcullis',
    event_type: 'assets',
    status: 'ENABLED',
    ...extra,
  });
  const create = async (extra: Record<string, unknown> = {}, headers = h, base = HOOKS) =>
    (await t.http.post(base).set(headers).send(body(extra)).expect(201)).body as Record<string, unknown> & {
      id: string;
      secret: string;
    };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createUser(t, { isAdmin: true });
    h = await as(admin);
  });
  afterAll(() => t.close());

  describe('POST', () => {
    it('registers a webhook (201) with every field of the wire shape and the secret, shown once', async () => {
      const res = await t.http
        .post(`${HOOKS}/`)
        .set(h)
        .send(
          body({
            operation: 'update',
            realm: 'metadata',
            name: 'DAM sync',
            description: 'Metadata changes to the sync service',
            query: { type: 'video' },
            headers: { 'X-Team': 'media', Authorization: 'Bearer receiver-credential' },
          }),
        )
        .expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        url: 'https://hooks.example.com/portcullis',
        event_type: 'assets',
        operation: 'update',
        realm: 'metadata',
        object_id: null,
        status: 'ENABLED',
        name: 'DAM sync',
        description: 'Metadata changes to the sync service',
        query: { type: 'video' },
        headers: { 'X-Team': 'media', Authorization: '[redacted]' },
        system_domain_id: t.domainId,
        last_error: null,
        last_payload: null,
        first_failed_at: null,
        deleted_at: null,
        date_created: expect.stringMatching(WIRE_DATE_PATTERN),
        date_modified: expect.stringMatching(WIRE_DATE_PATTERN),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      });
      // the secret and the headers are sealed at rest: neither is in the row in clear
      const row = await t.ds.getRepository(WebhookEntity).findOneByOrFail({ id: res.body.id });
      expect(row.secret_sealed).not.toContain(res.body.secret.slice(6));
      expect(row.headers_sealed).not.toContain('receiver-credential');
      expect(t.get(WebhookSecrets).open(row.secret_sealed)).toBe(res.body.secret);
      // and never shown again
      const again = await t.http.get(`${HOOKS}/${res.body.id}/`).set(h).expect(200);
      expect(again.body.secret).toBeUndefined();
      expect(again.body).toEqual(
        Object.fromEntries(Object.entries(res.body).filter(([k]) => k !== 'secret')),
      );
    });

    it('takes the platform’s minimal body (nullable operation and realm), without the trailing slash', async () => {
      const res = await t.http
        .post(HOOKS)
        .set(h)
        .send({
          event_type: 'assets',
          operation: null,
          realm: null,
          status: 'ENABLED',
          url: 'https://h.example/x',
        })
        .expect(201);
      expect(res.body).toMatchObject({
        operation: null,
        realm: null,
        object_id: null,
        headers: {},
        query: null,
      });
    });

    it('takes a string query, an object_id filter, and DISABLED', async () => {
      const objectId = randomUUID();
      const a = await create({ query: 'type:video', object_id: objectId, status: 'DISABLED' });
      expect(a).toMatchObject({ query: 'type:video', object_id: objectId, status: 'DISABLED' });
    });

    it.each([
      [{}, ['url', 'event_type', 'status']],
      [{ url: 'https://h.example/', event_type: '', status: 'ON' }, ['event_type', 'status']],
      [{ ...body(), object_id: 'nope', headers: 'x' }, ['object_id', 'headers']],
      [{ ...body(), query: 5 }, ['query']],
      [{ ...body(), query: [1] }, ['query']],
      [{ ...body(), headers: { 'webhook-signature': 'v1,forged' } }, ['headers']],
      [{ ...body(), headers: { 'Content-Type': 'text/plain' } }, ['headers']],
      [{ ...body(), headers: { 'X-Evil': 'a\r\nInjected: yes' } }, ['headers']],
      [{ ...body(), headers: { 'bad name': 'v' } }, ['headers']],
      [{ ...body(), headers: { 'X-Num': 5 } }, ['headers']],
      [
        { ...body(), headers: Object.fromEntries([...Array(21)].map((_, i) => [`x-h${i}`, 'v'])) },
        ['headers'],
      ],
    ])('refuses %j with 400 naming %j', async (sent, fields) => {
      const res = await t.http.post(HOOKS).set(h).send(sent).expect(400);
      expect(Object.keys(res.body.errors).sort()).toEqual([...fields].sort());
    });

    // the url rule's cases and status DELETED: webhooks.service.spec.ts
    it('refuses a url the service rule refuses with 400 naming url', async () => {
      const res = await t.http
        .post(HOOKS)
        .set(h)
        .send(body({ url: 'ftp://files.example.com/' }))
        .expect(400);
      expect(res.body).toEqual({ errors: { url: 'url must use http or https' } });
    });

    it('never takes a secret from the caller (unknown fields are dropped): the service generates it', async () => {
      const res = await t.http
        .post(HOOKS)
        .set(h)
        .send(body({ secret: 'whsec_chosen' }))
        .expect(201);
      expect(res.body.secret).not.toBe('whsec_chosen');
    });
  });

  describe('both mounts', () => {
    it('serve the same webhooks: created on one, read, changed and deleted on the other', async () => {
      const w = await create({ name: 'legacy' }, h, LEGACY);
      await t.http.get(`${HOOKS}/${w.id}`).set(h).expect(200);
      const patched = await t.http.patch(`${LEGACY}/${w.id}/`).set(h).send({ name: 'renamed' }).expect(200);
      expect(patched.body.name).toBe('renamed');
      const listed = await t.http.get(`${LEGACY}/`).set(h).query({ per_page: 1000 }).expect(200);
      expect(listed.body.objects.map((o: { id: string }) => o.id)).toContain(w.id);
      expect(listed.body.first_url).toMatch(/^\/API\/webhooks\/v1\/webhooks\/?\?/);
      await t.http.delete(`${HOOKS}/${w.id}`).set(h).expect(204);
      await t.http.get(`${LEGACY}/${w.id}`).set(h).expect(404);
    });
  });

  describe('GET list', () => {
    it('is page style in the common envelope, filters on status and event_type, sorts, and hides deleted ones', async () => {
      const d = await createDomain(t);
      const other = await as(await createUser(t, { isAdmin: true, domainId: d.id }));
      const type = `type-${randomUUID().slice(0, 8)}`;
      const a = await create({ event_type: type, name: 'b' }, other);
      const b = await create({ event_type: type, name: 'a', status: 'DISABLED' }, other);
      const gone = await create({ event_type: type, name: 'c' }, other);
      await t.http.delete(`${HOOKS}/${gone.id}`).set(other).expect(204);
      const res = await t.http.get(HOOKS).set(other).query({ sort: 'name,asc', per_page: 1 }).expect(200);
      expect(res.body).toMatchObject({
        page: 1,
        pages: 2,
        per_page: 1,
        total: 2,
        prev_url: null,
        next_url: `${HOOKS}?page=2&per_page=1&sort=name%2Casc`,
      });
      expect(res.body.objects.map((o: { id: string }) => o.id)).toEqual([b.id]);
      expect(res.body.objects[0].secret).toBeUndefined();
      const enabled = await t.http
        .get(HOOKS)
        .set(other)
        .query({ status: 'ENABLED', event_type: type })
        .expect(200);
      expect(enabled.body.objects.map((o: { id: string }) => o.id)).toEqual([a.id]);
      await t.http.get(HOOKS).set(other).query({ status: 'DELETED' }).expect(400);
      await t.http.get(HOOKS).set(other).query({ sort: 'secret_sealed,asc' }).expect(400);
      await t.http.get(HOOKS).set(other).query({ per_page: 1001 }).expect(400);
    });
  });

  describe('PUT and PATCH', () => {
    it('update any subset (200); PUT is the same as PATCH; nulls clear the nullable fields', async () => {
      const w = await create({ operation: 'update', realm: 'metadata', name: 'n' });
      const put = await t.http
        .put(`${HOOKS}/${w.id}/`)
        .set(h)
        .send({ url: 'https://other.example/hook', event_type: 'users', operation: null })
        .expect(200);
      expect(put.body).toMatchObject({
        url: 'https://other.example/hook',
        event_type: 'users',
        operation: null,
        realm: 'metadata',
        name: 'n',
      });
      const patch = await t.http
        .patch(`${HOOKS}/${w.id}`)
        .set(h)
        .send({ realm: null, query: 'q' })
        .expect(200);
      expect(patch.body).toMatchObject({ realm: null, query: 'q', event_type: 'users' });
      expect(new Date(patch.body.date_modified).getTime()).toBeGreaterThanOrEqual(
        new Date(w.date_modified as string).getTime(),
      );
    });

    it('a GET-then-PUT round trip keeps redacted header values; "[redacted]" for a new header is refused', async () => {
      const w = await create({ headers: { Authorization: 'Bearer keep-me', 'X-Team': 'a' } });
      const got = (await t.http.get(`${HOOKS}/${w.id}`).set(h).expect(200)).body;
      expect(got.headers).toEqual({ Authorization: '[redacted]', 'X-Team': 'a' });
      // the whole answer sent back: read-only fields are dropped, the redacted value is kept
      const put = await t.http
        .put(`${HOOKS}/${w.id}`)
        .set(h)
        .send({ ...got, last_error: 'forged', headers: { ...got.headers, 'X-Team': 'b' } })
        .expect(200);
      expect(put.body.last_error).toBeNull();
      expect(put.body.headers).toEqual({ Authorization: '[redacted]', 'X-Team': 'b' });
      const row = await t.ds.getRepository(WebhookEntity).findOneByOrFail({ id: w.id });
      expect(t.get(WebhookSecrets).openHeaders(row.headers_sealed)).toEqual({
        Authorization: 'Bearer keep-me',
        'X-Team': 'b',
      });
      const bad = await t.http
        .patch(`${HOOKS}/${w.id}`)
        .set(h)
        .send({ headers: { 'X-Api-Key': '[redacted]' } })
        .expect(400);
      expect(bad.body).toEqual({ errors: { headers: 'headers "X-Api-Key" has no stored value to keep' } });
      const cleared = await t.http.patch(`${HOOKS}/${w.id}`).set(h).send({ headers: {} }).expect(200);
      expect(cleared.body.headers).toEqual({});
    });

    it('validates like POST: the url rule, bad fields (status transitions: webhooks.service.spec.ts)', async () => {
      const w = await create();
      await t.http.patch(`${HOOKS}/${w.id}`).set(h).send({ url: 'gopher://x/' }).expect(400);
      await t.http.patch(`${HOOKS}/${w.id}`).set(h).send({ event_type: null }).expect(400);
      await t.http.patch(`${HOOKS}/${w.id}`).set(h).send({ url: null }).expect(400);
    });
  });

  describe('DELETE', () => {
    it('is soft (204; the row stays DELETED with deleted_at) and the webhook answers 404 from then on', async () => {
      const w = await create();
      await t.http.delete(`${HOOKS}/${w.id}/`).set(h).expect(204);
      const row = await t.ds.getRepository(WebhookEntity).findOneByOrFail({ id: w.id });
      expect(row.status).toBe('DELETED');
      expect(row.deleted_at).toBeInstanceOf(Date);
      for (const call of [
        t.http.get(`${HOOKS}/${w.id}`),
        t.http.patch(`${HOOKS}/${w.id}`).send({ name: 'x' }),
        t.http.put(`${HOOKS}/${w.id}`).send({ name: 'x' }),
        t.http.delete(`${HOOKS}/${w.id}`),
        t.http.post(`${HOOKS}/${w.id}/secret/rotate`),
        t.http.get(`${HOOKS}/${w.id}/deliveries`),
      ]) {
        const res = await call.set(h).expect(404);
        expect(res.body).toEqual({ errors: ['Webhook not found'] });
      }
    });
  });

  describe('secret rotation', () => {
    it('answers a new secret once (200); the stored one changes', async () => {
      const w = await create();
      const res = await t.http.post(`${HOOKS}/${w.id}/secret/rotate/`).set(h).expect(200);
      expect(res.body.secret).toMatch(/^whsec_/);
      expect(res.body.secret).not.toBe(w.secret);
      expect(res.body.id).toBe(w.id);
      const row = await t.ds.getRepository(WebhookEntity).findOneByOrFail({ id: w.id });
      expect(t.get(WebhookSecrets).open(row.secret_sealed)).toBe(res.body.secret);
    });
  });

  describe('delivery log', () => {
    it('is page style (empty for a new webhook); replaying an unknown delivery is a 404', async () => {
      const w = await create();
      const res = await t.http.get(`${HOOKS}/${w.id}/deliveries/`).set(h).expect(200);
      expect(res.body).toMatchObject({ objects: [], total: 0, page: 1, pages: 1 });
      const miss = await t.http
        .post(`${HOOKS}/${w.id}/deliveries/${randomUUID()}/replay/`)
        .set(h)
        .expect(404);
      expect(miss.body).toEqual({ errors: ['Webhook delivery not found'] });
      await t.http.post(`${HOOKS}/${w.id}/deliveries/not-a-uuid/replay`).set(h).expect(404);
      await t.http.get(`${HOOKS}/${w.id}/deliveries`).set(h).query({ status: 'LOST' }).expect(400);
    });
  });

  describe('who may call', () => {
    it('domain administrators only: a user without admin rights gets 403 on every route, reads included', async () => {
      const w = await create();
      const user = await as(await createUser(t, { roles: ['can_read_users', 'can_write_apps'] }));
      const calls = [
        t.http.get(HOOKS),
        t.http.post(HOOKS).send(body()),
        t.http.get(`${HOOKS}/${w.id}`),
        t.http.put(`${HOOKS}/${w.id}`).send({ name: 'x' }),
        t.http.patch(`${HOOKS}/${w.id}`).send({ name: 'x' }),
        t.http.delete(`${HOOKS}/${w.id}`),
        t.http.post(`${HOOKS}/${w.id}/secret/rotate`),
        t.http.get(`${HOOKS}/${w.id}/deliveries`),
        t.http.post(`${HOOKS}/${w.id}/deliveries/${randomUUID()}/replay`),
        t.http.get(LEGACY),
      ];
      for (const call of calls) await call.set(user).expect(403);
      await t.http.get(HOOKS).expect(401);
    });

    it('another domain’s webhook is a 404 (not even confirmed), as an unknown or malformed id is', async () => {
      const w = await create();
      const d = await createDomain(t);
      const otherAdmin = await as(await createUser(t, { isAdmin: true, domainId: d.id }));
      for (const id of [w.id, randomUUID(), 'nonsense']) {
        for (const call of [
          t.http.get(`${HOOKS}/${id}`),
          t.http.patch(`${HOOKS}/${id}`).send({ name: 'x' }),
          t.http.delete(`${HOOKS}/${id}`),
          t.http.get(`${LEGACY}/${id}/deliveries`),
        ]) {
          const res = await call.set(otherAdmin).expect(404);
          expect(res.body).toEqual({ errors: ['Webhook not found'] });
        }
      }
      const list = await t.http.get(HOOKS).set(otherAdmin).expect(200);
      expect(list.body.objects.map((o: { id: string }) => o.id)).not.toContain(w.id);
      // untouched
      expect((await t.http.get(`${HOOKS}/${w.id}`).set(h).expect(200)).body.status).toBe('ENABLED');
    });
  });
});
