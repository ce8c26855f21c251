import { WIRE_DATE_PATTERN } from '../../src/base/common/http/wire-date.js';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { WebhookReceiver } from '../utils/webhook-receiver.js';

const ASSETS = '/API/assets/v1/assets';
const META = '/API/metadata/v1';
const HOOKS = '/API/notifications/v1/webhooks';
const ACLS = '/API/acls/v1';
const ASSET_ROLES = ['can_read_assets', 'can_write_assets', 'can_delete_assets'];

const FIELDS = [
  { name: 'description', label: 'Description' },
  { name: 'keywords', label: 'Keywords', required: true },
  { name: 'checksum', label: 'Checksum', read_only: true },
];

/** Issue 24: metadata views, asset categories, an asset's values through a view, and the metadata event. */
describe('metadata', () => {
  let t: TestApp;
  let user: UserEntity;
  let h: Record<string, string>;
  let receiver: WebhookReceiver;
  let secret: string;

  const newView = async (fields: object[] = FIELDS) =>
    (
      await t.http
        .post(`${META}/views/`)
        .set(h)
        .send({ name: `view ${randomUUID().slice(0, 6)}`, description: 'd', view_fields: fields })
        .expect(201)
    ).body as { id: string; view_fields: object[] };
  const newAsset = async () =>
    (await t.http.post(`${ASSETS}/`).set(h).send({ title: 'Harbour at dawn' }).expect(201)).body as {
      id: string;
      versions: { id: string }[];
    };

  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_POLL_INTERVAL_MS: '20', WEBHOOK_RETRY_BASE_MS: '20' });
    receiver = await WebhookReceiver.start();
    user = await createUser(t, { roles: ASSET_ROLES });
    h = bearer((await tokenFor(t, user)).token);
    const admin = bearer((await tokenFor(t, await createUser(t, { isAdmin: true }))).token);
    secret = (
      await t.http
        .post(`${HOOKS}/`)
        .set(admin)
        .send({ url: receiver.url('/meta'), event_type: 'assets', realm: 'metadata', status: 'ENABLED' })
        .expect(201)
    ).body.secret;
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  describe('views', () => {
    // issue 38: each entry is answered as the registered field (registered by the view when it was not)
    it('POST 201 with view_fields (each the registered field, defaults filled in); GET, list, PUT 200, DELETE 204', async () => {
      const v = await newView();
      expect(v.view_fields[0]).toEqual({
        name: 'description',
        label: 'Description',
        field_type: 'string',
        description: null,
        external_id: null,
        auto_set: false,
        hide_if_not_set: false,
        is_block_field: false,
        is_warning_field: false,
        mapped_field_name: null,
        max_value: null,
        min_value: null,
        multi: true,
        options: [],
        read_only: false,
        representative: false,
        required: false,
        sortable: false,
        source_url: null,
        use_as_facet: false,
        date_created: expect.stringMatching(WIRE_DATE_PATTERN),
        date_modified: expect.stringMatching(WIRE_DATE_PATTERN),
      });
      await t.http.get(`${META}/views/${v.id}`).set(h).expect(200);
      const list = await t.http.get(`${META}/views/?per_page=100`).set(h).expect(200);
      expect(list.body.objects.map((o: { id: string }) => o.id)).toContain(v.id);
      const put = await t.http
        .put(`${META}/views/${v.id}/`)
        .set(h)
        .send({ name: 'renamed', view_fields: [{ name: 'only' }] })
        .expect(200);
      expect(put.body).toMatchObject({ name: 'renamed', description: null, view_fields: [{ name: 'only' }] });
      await t.http.delete(`${META}/views/${v.id}/`).set(h).expect(204);
      await t.http.get(`${META}/views/${v.id}/`).set(h).expect(404);
    });
  });

  describe('categories', () => {
    // a duplicate name (409) and unknown views (400): ViewsService's unit spec
    it('POST 201 with view_ids; GET lists it', async () => {
      const v = await newView();
      const res = await t.http
        .post(`${META}/assets/categories/`)
        .set(h)
        .send({ name: 'photos', label: 'Photos', view_ids: [v.id] })
        .expect(201);
      expect(res.body).toMatchObject({
        name: 'photos',
        label: 'Photos',
        object_type: 'assets',
        view_ids: [v.id],
      });
      expect(res.body.date_created).toMatch(WIRE_DATE_PATTERN);
      const list = await t.http.get(`${META}/assets/categories`).set(h).expect(200);
      expect(list.body.objects.map((c: { name: string }) => c.name)).toContain('photos');
    });
  });

  describe('values through a view', () => {
    it('PUT 200 sets them on the current version; GET answers the same; the event has the spec’s shape', async () => {
      const v = await newView();
      const a = await newAsset();
      const rid = `req-${randomUUID()}`;
      const res = await t.http
        .put(`${META}/assets/${a.id}/views/${v.id}/`)
        .set(h)
        .set('X-Request-Id', rid)
        .send({
          metadata_values: {
            description: { field_values: [{ value: 'Fishing boats leaving the harbour' }] },
            keywords: { field_values: [{ value: 'boats' }, { value: 'sunrise' }] },
          },
        })
        .expect(200);
      expect(res.body).toMatchObject({
        object_id: a.id,
        object_type: 'assets',
        view_id: v.id,
        version_id: a.versions[0].id,
        metadata_values: {
          description: { field_values: [{ value: 'Fishing boats leaving the harbour' }] },
          keywords: { field_values: [{ value: 'boats' }, { value: 'sunrise' }] },
        },
      });
      const got = await t.http.get(`${META}/assets/${a.id}/views/${v.id}`).set(h).expect(200);
      expect(got.body).toEqual(res.body);

      await receiver.waitFor((r) => r.some((x) => JSON.parse(x.body).request_id === rid));
      const delivery = receiver.received.find((x) => JSON.parse(x.body).request_id === rid)!;
      // signed as every webhook delivery is
      const msg = new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
      expect(msg).toEqual({
        system_domain_id: t.domainId,
        object_id: a.id,
        realm: 'metadata',
        operation: 'update',
        event_type: 'assets',
        request_id: rid,
        data: {
          version_id: a.versions[0].id,
          metadata_values: {
            description: {
              field_values: [{ value: 'Fishing boats leaving the harbour' }],
              date_created: expect.stringMatching(WIRE_DATE_PATTERN),
            },
            keywords: {
              field_values: [{ value: 'boats' }, { value: 'sunrise' }],
              date_created: expect.stringMatching(WIRE_DATE_PATTERN),
            },
          },
          object_type: 'assets',
          object_id: a.id,
        },
      });
    });

    // unknown, read-only and malformed fields, clearing a required one, an empty PUT: AssetMetadataService's unit spec
    it('a missing required field is a 400 naming it, and the values written before the check roll back', async () => {
      const v = await newView();
      const a = await newAsset();
      const req = await t.http
        .put(`${META}/assets/${a.id}/views/${v.id}/`)
        .set(h)
        .send({ metadata_values: { description: { field_values: [{ value: 'x' }] } } })
        .expect(400);
      expect(req.body).toEqual({ errors: { 'metadata_values.keywords': 'is required' } });
      const got = await t.http.get(`${META}/assets/${a.id}/views/${v.id}/`).set(h).expect(200);
      expect(got.body.metadata_values).toEqual({});
    });

    it('needs write on the asset; without read the asset is a 404; another tenant’s ids are a 404', async () => {
      const v = await newView();
      const a = await newAsset();
      const reader = await createUser(t, { roles: ASSET_ROLES });
      const hr = bearer((await tokenFor(t, reader)).token);
      const body = { metadata_values: { keywords: { field_values: [{ value: 'k' }] } } };
      await t.http.put(`${META}/assets/${a.id}/views/${v.id}/`).set(hr).send(body).expect(404);
      await t.http.get(`${META}/assets/${a.id}/views/${v.id}/`).set(hr).expect(404);
      await t.http
        .put(`${ACLS}/users/${reader.id}/acl/assets/${a.id}/`)
        .set(h)
        .send({ permissions: ['read'] })
        .expect(201);
      await t.http.get(`${META}/assets/${a.id}/views/${v.id}/`).set(hr).expect(200);
      await t.http.put(`${META}/assets/${a.id}/views/${v.id}/`).set(hr).send(body).expect(403);

      const domain = await createDomain(t);
      const outsider = bearer(
        (await tokenFor(t, await createUser(t, { domainId: domain.id, isAdmin: true }))).token,
      );
      await t.http.get(`${META}/views/${v.id}/`).set(outsider).expect(404);
      await t.http.get(`${META}/assets/${a.id}/views/${v.id}/`).set(outsider).expect(404);
      await t.http.put(`${META}/assets/${a.id}/views/${v.id}/`).set(outsider).send(body).expect(404);
      // the outsider's own view does not open the asset either
      const theirs = (
        await t.http.post(`${META}/views/`).set(outsider).send({ name: 'x', view_fields: [] }).expect(201)
      ).body.id;
      await t.http.put(`${META}/assets/${a.id}/views/${theirs}/`).set(h).send(body).expect(404);
    });
  });
});
