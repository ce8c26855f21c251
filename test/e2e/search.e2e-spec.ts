import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { createApp, createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, login, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { WebhookReceiver } from '../utils/webhook-receiver.js';

const ASSETS = '/API/assets/v1/assets';
const META = '/API/metadata/v1';
const SEARCH = '/API/search/v1/search';
const ACLS = '/API/acls/v1';
const ASSET_ROLES = ['can_read_assets', 'can_write_assets', 'can_delete_assets'];

interface Hit {
  id: string;
  title: string;
  _highlight: Record<string, string[]>;
}

/** Issue 24: search over titles and metadata values, with the ACL and deletion inside the query. */
describe('search', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let h: Record<string, string>;
  let email: string;

  const search = async (headers: Record<string, string>, body: object, status = 200, qs = '') =>
    (await t.http.post(`${SEARCH}/${qs}`).set(headers).send(body).expect(status)).body;
  const ids = (body: { objects: Hit[] }) => body.objects.map((o) => o.id);

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_RETRY_BASE_MS: '20' });
    receiver = await WebhookReceiver.start();
    email = `client-${randomUUID().slice(0, 6)}@example.com`;
    await createUser(t, { roles: ASSET_ROLES, email });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('the client workflow, through HTTP only: create, describe, find by title and by value, hear the event', async () => {
    h = bearer(await login(t, email, DEFAULT_PASSWORD));
    const adminToken = await login(t, (await createUser(t, { isAdmin: true })).email, DEFAULT_PASSWORD);
    const hook = (
      await t.http
        .post('/API/notifications/v1/webhooks/')
        .set(bearer(adminToken))
        .send({
          url: receiver.url('/flow'),
          event_type: 'assets',
          operation: 'update',
          realm: 'metadata',
          status: 'ENABLED',
        })
        .expect(201)
    ).body as { secret: string };

    const asset = (
      await t.http.post(`${ASSETS}/`).set(h).send({ title: 'Lighthouse storm footage' }).expect(201)
    ).body;
    const view = (
      await t.http
        .post(`${META}/views/`)
        .set(h)
        .send({
          name: 'Production',
          description: 'What the crew records',
          view_fields: [
            { name: 'location', label: 'Location', required: true },
            { name: 'camera', label: 'Camera' },
          ],
        })
        .expect(201)
    ).body;
    await t.http
      .post(`${META}/assets/categories/`)
      .set(h)
      .send({ name: 'footage', label: 'Footage', view_ids: [view.id] })
      .expect(201);
    const rid = `req-${randomUUID()}`;
    await t.http
      .put(`${META}/assets/${asset.id}/views/${view.id}/`)
      .set(h)
      .set('X-Request-Id', rid)
      .send({
        metadata_values: {
          location: { field_values: [{ value: 'Finisterre' }] },
          camera: { field_values: [{ value: 'Arri Alexa' }] },
        },
      })
      .expect(200);

    const byTitle = await search(h, { query: 'lighthouse', doc_types: ['assets'] });
    expect(ids(byTitle)).toEqual([asset.id]);
    expect(byTitle.objects[0]._highlight.title).toEqual(['<em>Lighthouse</em> storm footage']);
    expect(byTitle.objects[0]).toMatchObject({
      title: 'Lighthouse storm footage',
      permissions: expect.any(Array),
    });
    const byValue = await search(h, { query: 'finisterre', doc_types: ['assets'] });
    expect(ids(byValue)).toEqual([asset.id]);
    expect(byValue.objects[0]._highlight).toEqual({ 'metadata.location': ['<em>Finisterre</em>'] });
    expect(byValue.objects[0].metadata).toEqual({ camera: ['Arri Alexa'], location: ['Finisterre'] });
    // a hit is the asset exactly as GET answers it (versions, the caller's permissions), plus the two fields
    const asGot = (await t.http.get(`${ASSETS}/${asset.id}/`).set(h).expect(200)).body;
    const { _highlight, metadata: _metadata, doc_type: _docType, ...hit } = byValue.objects[0];
    expect(hit).toEqual(asGot);
    expect(asGot.permissions).toEqual(['read', 'write', 'delete', 'change-acl']);
    expect(byValue.scroll_id).toBeNull();
    expect(byValue).toMatchObject({
      total: 1,
      page: 1,
      pages: 1,
      facets: { type: { buckets: [{ key: 'ASSET', doc_count: 1 }] } },
    });

    await receiver.waitFor((r) => r.some((x) => JSON.parse(x.body).request_id === rid));
    const got = receiver.at('/flow').find((x) => JSON.parse(x.body).request_id === rid)!;
    const msg = new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>);
    expect(msg).toEqual({
      system_domain_id: t.domainId,
      object_id: asset.id,
      realm: 'metadata',
      operation: 'update',
      event_type: 'assets',
      request_id: rid,
      data: {
        version_id: asset.versions[0].id,
        metadata_values: {
          location: { field_values: [{ value: 'Finisterre' }], date_created: expect.any(String) },
          camera: { field_values: [{ value: 'Arri Alexa' }], date_created: expect.any(String) },
        },
        object_type: 'assets',
        object_id: asset.id,
      },
    });
  });

  describe('ACLs, deletion and tenants inside the query', () => {
    let owner: Record<string, string>;
    let reader: Record<string, string>;
    let readerId: string;
    const word = `zebra${randomUUID().slice(0, 6)}`;
    let visible: string;
    let hidden: string;

    beforeAll(async () => {
      owner = bearer((await tokenFor(t, await createUser(t, { roles: ASSET_ROLES }))).token);
      const r = await createUser(t, { roles: ASSET_ROLES });
      readerId = r.id;
      reader = bearer((await tokenFor(t, r)).token);
      visible = (
        await t.http
          .post(`${ASSETS}/`)
          .set(owner)
          .send({ title: `${word} shared` })
          .expect(201)
      ).body.id;
      hidden = (
        await t.http
          .post(`${ASSETS}/`)
          .set(owner)
          .send({ title: `${word} private`, type: 'CUSTOM' })
          .expect(201)
      ).body.id;
      await t.http
        .put(`${ACLS}/users/${readerId}/acl/assets/${visible}/`)
        .set(owner)
        .send({ permissions: ['read'] })
        .expect(201);
    });

    it('a user without read sees neither the hit nor its count nor its facet bucket', async () => {
      const mine = await search(reader, { query: word });
      expect(ids(mine)).toEqual([visible]);
      // the hit carries the reader's own permissions, as GET answers them
      const { _highlight, metadata: _metadata, doc_type: _docType, ...hit } = mine.objects[0];
      expect(hit).toEqual((await t.http.get(`${ASSETS}/${visible}/`).set(reader).expect(200)).body);
      expect(hit.permissions).toEqual(['read']);
      expect(mine.total).toBe(1);
      expect(mine.facets.type.buckets).toEqual([{ key: 'ASSET', doc_count: 1 }]);
      const all = await search(owner, { query: word, sort: [{ name: 'title', order: 'asc' }] });
      expect(ids(all)).toEqual([hidden, visible]);
      expect(all.facets.type.buckets).toEqual([
        { key: 'ASSET', doc_count: 1 },
        { key: 'CUSTOM', doc_count: 1 },
      ]);
    });

    it('paging counts only what the caller may read (never filtered after paging)', async () => {
      const first = await search(reader, { query: word, per_page: 1 });
      expect(first).toMatchObject({ total: 1, pages: 1, next_url: null });
      expect(ids(first)).toEqual([visible]);
      const viaQuery = await search(owner, { query: word }, 200, '?page=2&per_page=1');
      expect(viaQuery).toMatchObject({ page: 2, per_page: 1, total: 2 });
      expect(viaQuery.objects).toHaveLength(1);
    });

    it('a deleted asset is not found; another tenant never finds anything of this one', async () => {
      const doomed = (
        await t.http
          .post(`${ASSETS}/`)
          .set(owner)
          .send({ title: `${word} doomed` })
          .expect(201)
      ).body.id;
      expect(ids(await search(owner, { query: word }))).toContain(doomed);
      await t.http.delete(`${ASSETS}/${doomed}/`).set(owner).expect(204);
      expect(ids(await search(owner, { query: word }))).not.toContain(doomed);
      const domain = await createDomain(t);
      const outsider = bearer(
        (await tokenFor(t, await createUser(t, { domainId: domain.id, isAdmin: true }))).token,
      );
      expect(await search(outsider, { query: word })).toMatchObject({ total: 0, objects: [] });
      expect((await search(outsider, {})).total).toBe(0);
    });

    it('filters: asset fields and metadata values, and or / and', async () => {
      const f = await search(owner, {
        query: word,
        filter: { operator: 'and', terms: [{ name: 'type', value: 'CUSTOM' }] },
      });
      expect(ids(f)).toEqual([hidden]);
      const or = await search(owner, {
        filter: {
          operator: 'or',
          terms: [
            { name: 'id', value: visible },
            { name: 'id', value: hidden.toUpperCase() },
          ],
        },
      });
      expect(ids(or).sort()).toEqual([visible, hidden].sort());
      // a name that is no column is a metadata field (issue 38): no asset has one called password_hash
      const none = await search(owner, { filter: { terms: [{ name: 'password_hash', value: 'x' }] } });
      expect(none).toMatchObject({ total: 0, objects: [] });
    });

    it('an OAuth token with assets:read searches', async () => {
      const app = await createApp(t, { type: 'OAUTH', clientType: 'confidential', scopes: ['assets:read'] });
      const scoped = bearer(
        (
          await tokenFor(t, await createUser(t, { isAdmin: true }), {
            kind: 'OAUTH',
            appId: app.id,
            scopes: ['assets:read'],
          })
        ).token,
      );
      expect((await search(scoped, { query: word })).total).toBe(2);
    });
  });

  describe('hostile query strings: a 400 or a plain search, never a 500', () => {
    const hostile = [
      '&&& ||| !!! ((( )))',
      '"unterminated',
      'a & b | !c <-> d:* ',
      "'; DROP TABLE assets; --",
      '\\\\ \\" %_ * ? : ~',
      'or or or - - -',
      '<script>alert(1)</script>',
      'ﬀ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 עברית',
      'x'.repeat(1000),
      Array.from({ length: 120 }, (_, i) => `w${i}`).join(' | '),
    ];

    it.each(hostile.map((q) => [q.slice(0, 40), q]))('%s', async (_label, query) => {
      const res = await search(h, { query });
      expect(res).toHaveProperty('objects');
    });

    it('a huge query, a wrong sort order, a wrong doc type or a malformed filter are a 400', async () => {
      await search(h, { query: 'x'.repeat(1001) }, 400);
      // an unknown sort name sorts as missing (issue 38): 200
      await search(h, { sort: [{ name: 'password_hash' }] }, 200);
      await search(h, { sort: [{ name: 'title', order: 'sideways' }] }, 400);
      await search(h, { doc_types: ['users'] }, 400);
      await search(h, { filter: { terms: [{ name: 'type', value: { $ne: 1 } }] } }, 400);
      await search(h, { filter: { operator: 'xor', terms: [] } }, 400);
      await search(h, { query: ['array'] }, 400);
      await search(h, { per_page: 1001 }, 400);
    });

    it('highlights are escaped HTML: a title cannot inject markup', async () => {
      const a = (
        await t.http
          .post(`${ASSETS}/`)
          .set(h)
          .send({ title: '<img src=x onerror=alert(1)> kraken' })
          .expect(201)
      ).body;
      const res = await search(h, { query: 'kraken' });
      const hit = res.objects.find((o: Hit) => o.id === a.id);
      expect(hit._highlight.title).toEqual(['&lt;img src=x onerror=alert(1)&gt; <em>kraken</em>']);
    });
  });
});
