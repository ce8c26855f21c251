import { randomUUID } from 'node:crypto';
import { AppEntity } from '../../src/base/model/app.entity.js';
import { WIRE_DATE_PATTERN } from '../../src/base/common/http/wire-date.js';
import type { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { WebhookEventEntity } from '../../src/base/model/webhook-event.entity.js';
import { createApp, createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const BASE = '/API/auth/v1/system_domains';
const NOT_FOUND = { errors: ['System domain does not exist'] };
/** A 1×1 PNG, a JPEG header, and things that only claim to be images. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0rest')]);
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
);
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');

describe('system domains /API/auth/v1/system_domains', () => {
  let t: TestApp;
  let sa: Record<string, string>;
  let a: SystemDomainEntity;
  let b: SystemDomainEntity;
  let adminA: UserEntity;
  let memberA: UserEntity;
  let hAdminA: Record<string, string>;
  let hMemberA: Record<string, string>;
  let hAdminB: Record<string, string>;
  const as = async (user: UserEntity, domainId?: string) =>
    bearer((await tokenFor(t, user, domainId ? { domainId } : {})).token);
  const events = (objectId: string) =>
    t.ds.getRepository(WebhookEventEntity).find({
      where: { object_id: objectId, event_type: 'system_domains' },
      order: { date_created: 'ASC' },
    });

  beforeAll(async () => {
    t = await createTestApp();
    sa = await as(t.admin);
    a = await createDomain(t, {
      name: `Alpha ${randomUUID().slice(0, 6)}`,
      contract_end_date: new Date('2030-01-01Z'),
    });
    b = await createDomain(t, { name: `Beta ${randomUUID().slice(0, 6)}` });
    adminA = await createUser(t, { domainId: a.id, isAdmin: true });
    memberA = await createUser(t, { domainId: a.id });
    hAdminA = await as(adminA);
    hMemberA = await as(memberA);
    hAdminB = await as(await createUser(t, { domainId: b.id, isAdmin: true }));
    // the operator's own webhook hears every domain change (events are only stored when someone listens)
    await t.http
      .post('/API/notifications/v1/webhooks/')
      .set(sa)
      .send({ url: 'https://indexer.example.com/hook', event_type: 'system_domains', status: 'ENABLED' })
      .expect(201);
  });
  afterAll(() => t.close());

  describe('create, read, PUT/PATCH round trip', () => {
    let id: string;

    it('POST creates the domain (201, full form) with its built-in sign-in app, and a webhook event', async () => {
      const res = await t.http
        .post(`${BASE}/`)
        .set(sa)
        .send({
          name: 'Acme',
          base_url: 'https://acme.example.com',
          description: 'Anvils',
          status: 'ACTIVE',
          type: 'TRIAL',
          billing_tier: 'PRO',
          billing_limits: { standard_users: 10, power_users: null, shield_enabled: true },
          industry: 'AUTOMOTIVE',
          is_plg: true,
          contract_end_date: '2031-06-30T12:00:00+02:00',
          country: 'DE',
          discount_percent: 12.5,
          features: ['ai.search', 'shield'],
          crm_id: 'crm-1',
          // read-only and unknown fields are dropped, never written
          id: randomUUID(),
          creating_user_id: randomUUID(),
          mfa_required: true,
        })
        .expect(201);
      id = res.body.id;
      expect(res.body).toEqual({
        id: expect.any(String),
        name: 'Acme',
        base_url: 'https://acme.example.com',
        description: 'Anvils',
        status: 'ACTIVE',
        type: 'TRIAL',
        billing_tier: 'PRO',
        billing_limits: { standard_users: 10, power_users: null, shield_enabled: true },
        industry: 'AUTOMOTIVE',
        is_plg: true,
        disable_cc_purchase: false,
        has_preloaded_assets: false,
        contract_end_date: '2031-06-30T10:00:00.000000+00:00',
        freeze_date: null,
        deactivate_date: null,
        date_created: expect.stringMatching(WIRE_DATE_PATTERN),
        date_modified: expect.stringMatching(WIRE_DATE_PATTERN),
        country: 'DE',
        creating_user_id: t.admin.id,
        custom_terms: false,
        disable_billing_page: false,
        do_not_charge_edge_transcoder: false,
        do_not_charge_remote_proxies: false,
        do_not_charge_shield: false,
        invoice_end_of_month: false,
        is_e2e: false,
        is_template: false,
        discount_percent: 12.5,
        features: ['ai.search', 'shield'],
        marketplace_customer_id: null,
        marketplace_entitlement_id: null,
        billing_customer_id: null,
        billing_subscription_id: null,
        payments_id: null,
        crm_id: 'crm-1',
        price_list: null,
        primary_region: null,
        referral_code: null,
        warning_message: null,
        logo_url: null,
      });
      expect(await t.ds.getRepository(AppEntity).countBy({ system_domain_id: id, is_builtin: true })).toBe(1);
      const [event] = await events(id);
      expect(event).toMatchObject({
        realm: 'system_domain',
        operation: 'create',
        system_domain_id: t.domainId,
      });
      expect(event.data).toMatchObject({ id, name: 'Acme' });
    });

    it('GET answers the same form, with and without the trailing slash', async () => {
      const one = await t.http.get(`${BASE}/${id}/`).set(sa).expect(200);
      const two = await t.http.get(`${BASE}/${id}`).set(sa).expect(200);
      expect(two.body).toEqual(one.body);
      expect(one.body.name).toBe('Acme');
    });

    it('PATCH changes the fields sent; dates normalised; PUT needs name and base_url; GET reads back', async () => {
      const patched = await t.http
        .patch(`${BASE}/${id}`)
        .set(sa)
        .send({
          status: 'WARNING',
          warning_message: 'Invoice overdue',
          freeze_date: '2030-01-01T00:00:00+02:00',
          billing_limits: { browse_users: 0 },
          billing_tier: null,
        })
        .expect(200);
      expect(patched.body).toMatchObject({
        name: 'Acme',
        status: 'WARNING',
        warning_message: 'Invoice overdue',
        freeze_date: '2029-12-31T22:00:00.000000+00:00',
        billing_limits: { browse_users: 0 },
        billing_tier: null,
        industry: 'AUTOMOTIVE',
      });
      await t.http.put(`${BASE}/${id}/`).set(sa).send({ name: 'No URL' }).expect(400);
      const put = await t.http
        .put(`${BASE}/${id}/`)
        .set(sa)
        .send({ ...patched.body, name: 'Acme Ltd', status: 'ACTIVE', freeze_date: null, is_template: true })
        .expect(200);
      expect(put.body).toMatchObject({
        name: 'Acme Ltd',
        status: 'ACTIVE',
        freeze_date: null,
        is_template: true,
      });
      const read = await t.http.get(`${BASE}/${id}/`).set(sa).expect(200);
      expect(read.body).toEqual(put.body);
      expect((await events(id)).map((e) => e.operation)).toEqual(['create', 'update', 'update']);
      // the template list shows it
      const templates = await t.http.get(`${BASE}/templates/?per_page=1000`).set(sa).expect(200);
      expect(templates.body.objects.map((d: { id: string }) => d.id)).toContain(id);
      expect(templates.body.objects.every((d: { is_template: boolean }) => d.is_template)).toBe(true);
    });

    it('bad input → 400 naming the field, and nothing changes', async () => {
      const before = (await t.http.get(`${BASE}/${id}/`).set(sa).expect(200)).body;
      const bad: [Record<string, unknown>, string][] = [
        [{ status: 'ON_FIRE' }, 'status'],
        [{ type: 'GOLD' }, 'type'],
        [{ billing_tier: 'FREE' }, 'billing_tier'],
        [{ industry: 'PIRACY' }, 'industry'],
        [{ billing_limits: { standard_users: -1 } }, 'billing_limits'],
        [{ billing_limits: { power_users: 1.5 } }, 'billing_limits'],
        [{ billing_limits: { shield_enabled: 'yes' } }, 'billing_limits'],
        [{ billing_limits: 'unlimited' }, 'billing_limits'],
        [{ freeze_date: 'tomorrow' }, 'freeze_date'],
        [{ freeze_date: '2030-01-01T00:00:00' }, 'freeze_date'],
        [{ deactivate_date: '2030-02-30T00:00:00Z' }, 'deactivate_date'],
        [{ features: ['Not A Feature'] }, 'features'],
        [{ features: ['x', 'x'] }, 'features'],
        [{ discount_percent: 101 }, 'discount_percent'],
        [{ base_url: 'javascript:alert(1)' }, 'base_url'],
        [{ name: '' }, 'name'],
        [{ is_plg: 'true' }, 'is_plg'],
      ];
      for (const [body, field] of bad) {
        const res = await t.http.patch(`${BASE}/${id}/`).set(sa).send(body);
        expect([res.status, Object.keys(res.body.errors ?? {}).some((k) => k.startsWith(field))]).toEqual([
          400,
          true,
        ]);
      }
      await t.http.post(`${BASE}/`).set(sa).send({ base_url: 'https://x.example' }).expect(400);
      await t.http
        .post(`${BASE}/`)
        .set(sa)
        .send({ name: 'x', base_url: 'https://x.example', status: 'NOPE' })
        .expect(400);
      expect((await t.http.get(`${BASE}/${id}/`).set(sa).expect(200)).body).toEqual(before);
    });

    it('features: GET and PUT (replace), validated; domain admins read, only super admins write', async () => {
      await t.http
        .put(`${BASE}/${a.id}/features`)
        .set(sa)
        .send({ features: ['b.two', 'a:one'] })
        .expect(200, {
          features: ['b.two', 'a:one'],
          parameters: {},
        });
      await t.http
        .get(`${BASE}/${a.id}/features/`)
        .set(hAdminA)
        .expect(200, { features: ['b.two', 'a:one'], parameters: {} });
      await t.http.put(`${BASE}/${a.id}/features/`).set(hAdminA).send({ features: [] }).expect(403);
      await t.http.get(`${BASE}/${a.id}/features/`).set(hMemberA).expect(403);
      await t.http.get(`${BASE}/${a.id}/features/`).set(hAdminB).expect(404, NOT_FOUND);
      const tooMany = Array.from({ length: 101 }, (_, i) => `f${i}`);
      for (const features of [tooMany, ['UPPER'], ['-lead'], ['a'.repeat(65)], 'a', [1]]) {
        await t.http.put(`${BASE}/${a.id}/features/`).set(sa).send({ features }).expect(400);
      }
      await t.http.put(`${BASE}/${a.id}/features/`).set(sa).send({}).expect(400);
      await t.http
        .get(`${BASE}/${a.id}/features/`)
        .set(sa)
        .expect(200, { features: ['b.two', 'a:one'], parameters: {} });
    });

    it('features: POST {config: {feature, parameters}} (the published body) turns one on, once, with its parameters', async () => {
      const add = (config: unknown, h = sa) =>
        t.http.post(`${BASE}/${b.id}/features`).set(h).send({ config });
      await t.http
        .put(`${BASE}/${b.id}/features/`)
        .set(sa)
        .send({ features: ['x.one'] })
        .expect(200);
      const none = { parameters: {} };
      await add({ feature: 'y.two', parameters: {} }).expect(201, { features: ['x.one', 'y.two'], ...none });
      await add({ feature: 'y.two' }).expect(201, { features: ['x.one', 'y.two'], ...none });
      await add({ feature: 'z.three', parameters: null }).expect(201);
      // bad names and shapes (upper-case names and parameters: published-clients.e2e-spec.ts); admins of the domain
      for (const config of [
        { feature: 'w.four', parameters: 3 },
        { feature: 'UPPER CASE' },
        { feature: 1 },
        {},
        'y.two',
        null,
      ]) {
        await add(config).expect(400);
      }
      await t.http.post(`${BASE}/${b.id}/features/`).set(sa).send({ feature: 'w.four' }).expect(400);
      await add({ feature: 'w.four' }, hAdminB).expect(403);
      await add({ feature: 'w.four' }, hAdminA).expect(403);
      await t.http
        .post(`${BASE}/${randomUUID()}/features/`)
        .set(sa)
        .send({ config: { feature: 'a' } })
        .expect(404);
      await t.http
        .get(`${BASE}/${b.id}/features/`)
        .set(sa)
        .expect(200, { features: ['x.one', 'y.two', 'z.three'], ...none });
    });
  });

  describe('list: query, statuses, types, is_template, sort, facets', () => {
    const marker = `zq${randomUUID().slice(0, 8)}`;
    beforeAll(async () => {
      await createDomain(t, {
        name: `${marker} one`,
        status: 'ACTIVE',
        type: 'CUSTOMER',
        billing_tier: 'PRO',
      });
      await createDomain(t, {
        name: `two ${marker.toUpperCase()}`,
        status: 'WARNING',
        type: 'TRIAL',
        billing_tier: 'PRO',
      });
      await createDomain(t, {
        name: 'three',
        description: `about ${marker}`,
        status: 'FROZEN',
        type: 'CUSTOMER',
      });
      await createDomain(t, {
        name: 'four',
        base_url: `https://${marker}.example`,
        status: 'ACTIVE',
        type: 'PARTNER',
        is_template: true,
      });
      await createDomain(t, { name: 'unrelated', status: 'ACTIVE' });
    });
    const list = (qs: string) => t.http.get(`${BASE}/?${qs}`).set(sa);

    it('query matches name, base_url and description case-insensitively; facets count the filtered set', async () => {
      const res = await list(`query=${marker}&per_page=2&sort=name,asc`).expect(200);
      expect(res.body).toMatchObject({ total: 4, page: 1, pages: 2, per_page: 2 });
      expect(res.body.objects.map((d: { name: string }) => d.name)).toEqual(['four', 'three']);
      expect(res.body.next_url).toContain(`query=${marker}`);
      const counts = (f: { buckets: { key: string; doc_count: number }[] }) =>
        Object.fromEntries(f.buckets.map((x) => [x.key, x.doc_count]));
      expect(counts(res.body.facets.status)).toEqual({ ACTIVE: 2, WARNING: 1, FROZEN: 1 });
      expect(counts(res.body.facets.type)).toEqual({ CUSTOMER: 2, TRIAL: 1, PARTNER: 1 });
      expect(counts(res.body.facets.billing_tier)).toEqual({ PRO: 2 });
    });

    it('statuses and types are comma-separated and combine; is_template filters', async () => {
      expect((await list(`query=${marker}&statuses=ACTIVE,WARNING`).expect(200)).body.total).toBe(3);
      expect(
        (await list(`query=${marker}&statuses=ACTIVE&types=CUSTOMER,TRIAL`).expect(200)).body.total,
      ).toBe(1);
      const tpl = await list(`query=${marker}&is_template=true`).expect(200);
      expect(tpl.body.objects.map((d: { name: string }) => d.name)).toEqual(['four']);
      expect((await list(`query=${marker}&is_template=false`).expect(200)).body.total).toBe(3);
      // LIKE wildcards in the query are literal
      expect((await list('query=%25').expect(200)).body.total).toBe(0);
    });

    it('unknown status, type, sort field or is_template value → 400', async () => {
      const res = await list('statuses=ACTIVE,BOGUS').expect(400);
      expect(res.body.errors).toHaveProperty('statuses');
      await list('types=GOLD').expect(400);
      await list('sort=password_checks,asc').expect(400);
      await list('is_template=maybe').expect(400);
    });
  });

  describe('who may do what', () => {
    it('domain administrators read their own domain only; other domains are 404 with the wire wording', async () => {
      const own = await t.http.get(`${BASE}/${a.id}/`).set(hAdminA).expect(200);
      expect(own.body).toMatchObject({ id: a.id, name: a.name });
      expect(own.body).not.toHaveProperty('password_checks');
      expect(own.body).not.toHaveProperty('mfa_required');
      await t.http.get(`${BASE}/${b.id}/`).set(hAdminA).expect(404, NOT_FOUND);
      await t.http.get(`${BASE}/${randomUUID()}/`).set(hAdminA).expect(404, NOT_FOUND);
      await t.http.get(`${BASE}/${randomUUID()}/`).set(sa).expect(404, NOT_FOUND);
      await t.http.get(`${BASE}/not-a-uuid/`).set(sa).expect(404, NOT_FOUND);
      await t.http.get(`${BASE}/not-a-uuid/`).set(hAdminA).expect(404, NOT_FOUND);
      await t.http.patch(`${BASE}/not-a-uuid/`).set(sa).send({}).expect(404, NOT_FOUND);
    });

    it('search/ is the list under its published name, never the {id} route; super administrators only', async () => {
      const res = await t.http.get(`${BASE}/search/`).query({ query: a.name }).set(sa).expect(200);
      expect(res.body.objects.map((d: { id: string }) => d.id)).toEqual([a.id]);
      expect(res.body).toMatchObject({ page: 1, total: 1 });
      await t.http.get(`${BASE}/search`).set(sa).expect(200);
      await t.http.get(`${BASE}/search/`).set(hAdminA).expect(403);
      await t.http.get(`${BASE}/search/`).query({ statuses: 'NOPE' }).set(sa).expect(400);
    });

    it('fixed paths other modules serve under system_domains win over the {id} routes', async () => {
      // POST referral_code/{code}/ (OnboardingModule, mounted before this one) with codes that name our routes
      for (const code of ['reindex', 'logo']) {
        const res = await t.http.post(`${BASE}/referral_code/${code}/`).set(sa).send({});
        expect(JSON.stringify(res.body)).not.toMatch(/System domain (does not exist|not found)/);
        expect(res.status).toBe(400);
      }
    });

    it('only super administrators list, create, update, delete and reindex', async () => {
      for (const h of [hAdminA, hMemberA]) {
        await t.http.get(`${BASE}/`).set(h).expect(403);
        await t.http.get(`${BASE}/templates/`).set(h).expect(403);
        await t.http.post(`${BASE}/`).set(h).send({ name: 'x', base_url: 'https://x.example' }).expect(403);
        await t.http.patch(`${BASE}/${a.id}/`).set(h).send({ status: 'ACTIVE' }).expect(403);
        await t.http
          .put(`${BASE}/${a.id}/`)
          .set(h)
          .send({ name: 'x', base_url: 'https://x.example' })
          .expect(403);
        await t.http.delete(`${BASE}/${a.id}/`).set(h).expect(403);
        await t.http.post(`${BASE}/${a.id}/reindex/`).set(h).send({}).expect(403);
      }
      await t.http.get(`${BASE}/${a.id}/`).set(hMemberA).expect(403);
      await t.http.get(`${BASE}/`).expect(401);
      await t.http.get(`${BASE}/${a.id}/logo/`).expect(404); // public, and no logo yet
    });

    it('an OAuth token without user_impersonation cannot use the admin routes, even a super administrator’s', async () => {
      const app = await createApp(t, { type: 'OAUTH', clientType: 'confidential', scopes: ['assets:read'] });
      const { token } = await tokenFor(t, t.admin, { kind: 'OAUTH', appId: app.id, scopes: ['assets:read'] });
      const res = await t.http.get(`${BASE}/`).set(bearer(token)).expect(403);
      expect(res.body).toEqual({ errors: ['This route needs the user_impersonation scope'] });
      await t.http.get(`${BASE}/${t.domainId}/`).set(bearer(token)).expect(403);
      const full = await tokenFor(t, t.admin, {
        kind: 'OAUTH',
        appId: app.id,
        scopes: ['user_impersonation'],
      });
      await t.http.get(`${BASE}/`).set(bearer(full.token)).expect(200);
    });

    it('basic/{id}: Basic for members, BasicAdmin for the domain’s admins and super admins', async () => {
      const member = await t.http.get(`${BASE}/basic/${a.id}`).set(hMemberA).expect(200);
      expect(member.body).toEqual({
        id: a.id,
        name: a.name,
        type: 'CUSTOMER',
        billing_tier: null,
        country: null,
        features: expect.any(Array),
        is_plg: false,
        date_created: expect.stringMatching(WIRE_DATE_PATTERN),
      });
      const admin = await t.http.get(`${BASE}/basic/${a.id}/`).set(hAdminA).expect(200);
      expect(admin.body).toEqual({
        ...member.body,
        contract_end_date: '2030-01-01T00:00:00.000000+00:00',
        freeze_date: null,
      });
      const superView = await t.http.get(`${BASE}/basic/${a.id}/`).set(sa).expect(200);
      expect(superView.body).toEqual(admin.body);
      await t.http.get(`${BASE}/basic/${b.id}/`).set(hMemberA).expect(404, NOT_FOUND);
      await t.http.get(`${BASE}/basic/nope/`).set(hMemberA).expect(404);
    });

    it('profile: the domain’s admins (own domain) and super admins edit industry; members cannot', async () => {
      await t.http.patch(`${BASE}/${a.id}/profile/`).set(hAdminA).send({ industry: 'FINANCE' }).expect(200, {
        industry: 'FINANCE',
      });
      await t.http.get(`${BASE}/${a.id}/profile`).set(hAdminA).expect(200, { industry: 'FINANCE' });
      await t.http.patch(`${BASE}/${a.id}/profile/`).set(hAdminA).send({ industry: 'PIRACY' }).expect(400);
      await t.http.patch(`${BASE}/${a.id}/profile/`).set(hMemberA).send({ industry: 'OTHER' }).expect(403);
      await t.http
        .patch(`${BASE}/${a.id}/profile/`)
        .set(hAdminB)
        .send({ industry: 'OTHER' })
        .expect(404, NOT_FOUND);
      // the profile route writes nothing but the industry, whatever else is sent
      await t.http
        .patch(`${BASE}/${a.id}/profile/`)
        .set(hAdminA)
        .send({ industry: null, status: 'ACTIVE', billing_tier: 'ENTERPRISE', features: ['x'] })
        .expect(200, { industry: null });
      const full = await t.http.get(`${BASE}/${a.id}/`).set(sa).expect(200);
      expect(full.body).toMatchObject({ industry: null, billing_tier: null, features: ['b.two', 'a:one'] });
      expect((await events(a.id)).some((e) => e.operation === 'update')).toBe(true);
    });
  });

  describe('reindex', () => {
    it('202 with the request; recorded as a webhook event for the indexer', async () => {
      const res = await t.http
        .post(`${BASE}/${a.id}/reindex/`)
        .set(sa)
        .send({ sync_to_another_dc: true })
        .expect(202);
      expect(res.body).toEqual({
        id: expect.any(String),
        system_domain_id: a.id,
        sync_to_another_dc: true,
        date_created: expect.stringMatching(WIRE_DATE_PATTERN),
      });
      const event = (await events(a.id)).find((e) => e.operation === 'reindex');
      expect(event).toMatchObject({ realm: 'system_domain', system_domain_id: t.domainId });
      expect(event!.data).toEqual({
        reindex_id: res.body.id,
        system_domain_id: a.id,
        sync_to_another_dc: true,
      });
      const plain = await t.http.post(`${BASE}/${a.id}/reindex`).set(sa).send({}).expect(202);
      expect(plain.body.sync_to_another_dc).toBe(false);
      await t.http.post(`${BASE}/${a.id}/reindex/`).set(sa).send({ sync_to_another_dc: 'yes' }).expect(400);
      await t.http.post(`${BASE}/${randomUUID()}/reindex/`).set(sa).send({}).expect(404, NOT_FOUND);
    });
  });

  describe('logo', () => {
    const upload = (
      id: string,
      h: Record<string, string>,
      bytes: Buffer,
      o: { field?: string; type?: string } = {},
    ) =>
      t.http
        .post(`${BASE}/${id}/logo/`)
        .set(h)
        .attach(o.field ?? 'logo', bytes, { filename: 'logo.png', contentType: o.type ?? 'image/png' });

    it('a domain admin uploads a PNG (201 {logo}); it is served publicly with safe headers; sign-in shows it', async () => {
      const res = await upload(a.id, hAdminA, PNG).expect(201);
      expect(res.body).toEqual({
        logo: expect.stringMatching(
          new RegExp(
            `^${t.config.http.publicBaseUrl}/API/auth/v1/system_domains/${a.id}/logo/\\?v=[0-9a-f]{12}$`,
          ),
        ),
      });
      const full = await t.http.get(`${BASE}/${a.id}/`).set(hAdminA).expect(200);
      expect(full.body.logo_url).toBe(res.body.logo);
      const path = new URL(res.body.logo).pathname + new URL(res.body.logo).search;
      const served = await t.http.get(path).buffer(true).expect(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-security-policy']).toContain("default-src 'none'");
      expect(served.headers['cache-control']).toContain('immutable');
      expect(Buffer.compare(served.body as Buffer, PNG)).toBe(0);
      await t.http.get(`${BASE}/${a.id}/logo`).set('If-None-Match', served.headers.etag).expect(304);
      // sign-in answers carry it in the domain's entry
      const signIn = await t.http
        .post('/API/auth/v1/auth/simple/login/')
        .send({ email: memberA.email, password: DEFAULT_PASSWORD })
        .expect(201);
      const entry = signIn.body.auth_system_domains.find(
        (d: { system_domain_id: string }) => d.system_domain_id === a.id,
      );
      expect(entry.logo_url).toBe(res.body.logo);
    });

    it('the "file" field works too; the type is judged by the bytes; a new image changes the URL', async () => {
      const first = (await t.http.get(`${BASE}/${a.id}/`).set(sa).expect(200)).body.logo_url;
      const res = await upload(a.id, sa, JPEG, { field: 'file', type: 'image/png' }).expect(201);
      expect(res.body.logo).not.toBe(first);
      const served = await t.http.get(`${BASE}/${a.id}/logo/`).buffer(true).expect(200);
      expect(served.headers['content-type']).toBe('image/jpeg');
      expect(served.headers['cache-control']).not.toContain('immutable');
    });

    it('multipart: refuses SVG sent as image/png (400), two files (400), too large (413); nothing changes', async () => {
      // what the service refuses (the type by the bytes, empty, misnamed or missing files) is in
      // system-domain-admin.service.spec.ts; here the multipart reader's limits and the HTTP shape
      const before = (await t.http.get(`${BASE}/${a.id}/`).set(sa).expect(200)).body.logo_url;
      const res = await upload(a.id, hAdminA, SVG, { type: 'image/png' }).expect(400);
      expect(res.body.errors[0]).toMatch(/PNG, JPEG, GIF or WebP/);
      await t.http
        .post(`${BASE}/${a.id}/logo/`)
        .set(hAdminA)
        .attach('logo', PNG, 'a.png')
        .attach('file', PNG, 'b.png')
        .expect(400);
      const big = Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]);
      const tooLarge = await upload(a.id, hAdminA, big).expect(413);
      expect(tooLarge.body.errors[0]).toMatch(/at most 1 MiB/);
      expect((await t.http.get(`${BASE}/${a.id}/`).set(sa).expect(200)).body.logo_url).toBe(before);
    });

    it('takes the raw image body (Content-Type image/*) as the published clients send it; the bytes decide', async () => {
      const raw = (bytes: Buffer, type: string, h = hAdminA) =>
        t.http.post(`${BASE}/${a.id}/logo`).set(h).set('Content-Type', type).send(bytes);
      const res = await raw(PNG, 'image/png').expect(201);
      const served = await t.http.get(`${BASE}/${a.id}/logo/`).buffer(true).expect(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(Buffer.compare(served.body as Buffer, PNG)).toBe(0);
      expect((await t.http.get(`${BASE}/${a.id}/`).set(sa).expect(200)).body.logo_url).toBe(res.body.logo);
      // hostile: an SVG or HTML page sent as an image, an empty body, over 1 MiB; members and other domains
      for (const [bytes, type] of [
        [SVG, 'image/svg+xml'],
        [HTML, 'image/png'],
        [Buffer.alloc(0), 'image/png'],
      ] as const) {
        await raw(bytes, type).expect(400);
      }
      const big = await raw(Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]), 'image/png').expect(413);
      expect(big.body.errors[0]).toMatch(/at most 1 MiB/);
      await raw(JPEG, 'image/jpeg', hMemberA).expect(403);
      await raw(JPEG, 'image/jpeg', hAdminB).expect(404, NOT_FOUND);
      expect((await t.http.get(`${BASE}/${a.id}/`).set(sa).expect(200)).body.logo_url).toBe(res.body.logo);
    });

    it('members and other domains’ admins cannot upload; DELETE removes it (204), then 404', async () => {
      await upload(a.id, hMemberA, PNG).expect(403);
      await upload(a.id, hAdminB, PNG).expect(404, NOT_FOUND);
      await t.http.delete(`${BASE}/${a.id}/logo/`).set(hAdminB).expect(404, NOT_FOUND);
      await t.http.delete(`${BASE}/${a.id}/logo/`).set(hAdminA).expect(204);
      await t.http.get(`${BASE}/${a.id}/logo/`).expect(404);
      await t.http.delete(`${BASE}/${a.id}/logo`).set(hAdminA).expect(404);
      expect((await t.http.get(`${BASE}/${a.id}/`).set(sa).expect(200)).body.logo_url).toBeNull();
      await t.http.get(`${BASE}/${randomUUID()}/logo/`).expect(404, NOT_FOUND);
      await t.http.get(`${BASE}/nope/logo/`).expect(404);
    });
  });

  describe('DELETE', () => {
    it('removes the domain and everything in it at once; multi-domain users survive in their other domain', async () => {
      const d = await createDomain(t);
      const other = await createDomain(t);
      const only = await createUser(t, { domainId: d.id, isAdmin: true, roles: ['can_read_apps'] });
      const homeHere = await createUser(t, { domainId: d.id, alsoIn: [other.id] });
      const homeElsewhere = await createUser(t, { domainId: other.id, alsoIn: [d.id] });
      const tokens = [await as(only), await as(homeHere), await as(homeElsewhere, d.id)];
      const otherToken = await as(homeElsewhere);
      for (const h of tokens) await t.http.get(`${BASE}/basic/${d.id}/`).set(h).expect(200);
      await createApp(t, { domainId: d.id });
      await t.http
        .post('/API/notifications/v1/webhooks/')
        .set(tokens[0])
        .send({ url: 'https://hooks.example.com/d', event_type: 'users', status: 'ENABLED' })
        .expect(201);
      await upload(d.id);

      await t.http.delete(`${BASE}/${d.id}`).set(sa).expect(204);

      // every token of the domain answers 401 on the very next request
      for (const h of tokens) await t.http.get(`${BASE}/basic/${d.id}/`).set(h).expect(401);
      // nothing anywhere still names the domain
      const tables: { table_name: string }[] = await t.ds.query(
        `SELECT table_name FROM information_schema.columns
          WHERE column_name = 'system_domain_id' AND table_schema = current_schema()`,
      );
      for (const { table_name } of tables) {
        // the audit trail outlives the domain: its records (the deletion last) stay until retention purges them
        if (table_name === 'audit_events') continue;
        const [{ n }] = await t.ds.query(
          `SELECT count(*)::int AS n FROM "${table_name}" WHERE system_domain_id = $1`,
          [d.id],
        );
        expect([table_name, n]).toEqual([table_name, 0]);
      }
      // …and the deletion itself is on record, in the domain of the administrator who did it
      const audit: { details: { operation?: string } }[] = await t.ds.query(
        `SELECT details FROM audit_events WHERE action = 'domain.changed' AND target_id = $1`,
        [d.id],
      );
      expect(audit.map((a) => a.details.operation)).toContain('delete');
      expect(await t.ds.query('SELECT 1 FROM system_domains WHERE id = $1', [d.id])).toHaveLength(0);
      // the user of this domain alone is gone; the others stay, homed in their remaining domain
      expect(await t.ds.getRepository(UserEntity).findOneBy({ id: only.id })).toBeNull();
      expect(
        (await t.ds.getRepository(UserEntity).findOneByOrFail({ id: homeHere.id })).system_domain_id,
      ).toBe(other.id);
      expect(
        (await t.ds.getRepository(UserEntity).findOneByOrFail({ id: homeElsewhere.id })).system_domain_id,
      ).toBe(other.id);
      await t.http.get(`${BASE}/basic/${other.id}/`).set(otherToken).expect(200);
      const signIn = await t.http
        .post('/API/auth/v1/auth/simple/login/')
        .send({ email: homeHere.email, password: DEFAULT_PASSWORD })
        .expect(201);
      expect(
        signIn.body.auth_system_domains.map((x: { system_domain_id: string }) => x.system_domain_id),
      ).toEqual([other.id]);
      await t.http.get(`${BASE}/basic/${other.id}/`).set(bearer(signIn.body.token)).expect(200);
      await t.http
        .post('/API/auth/v1/auth/simple/login/')
        .send({ email: only.email, password: DEFAULT_PASSWORD })
        .expect(401);
      // a second DELETE, and every route, now answer 404
      await t.http.delete(`${BASE}/${d.id}/`).set(sa).expect(404, NOT_FOUND);
      await t.http.get(`${BASE}/${d.id}/`).set(sa).expect(404, NOT_FOUND);
      const [event] = (await events(d.id)).filter((e) => e.operation === 'delete');
      expect(event).toMatchObject({ realm: 'system_domain', system_domain_id: t.domainId });
    });

    it('refuses to delete the only domain of a super administrator (their account would go with it)', async () => {
      const d = await createDomain(t);
      const boss = await createUser(t, { domainId: d.id, isSuperAdmin: true });
      const res = await t.http.delete(`${BASE}/${d.id}/`).set(sa).expect(400);
      expect(res.body.errors[0]).toMatch(/only domain of a super administrator/);
      expect(await t.ds.getRepository(UserEntity).findOneBy({ id: boss.id })).not.toBeNull();
      // once they belong to another domain too, the domain can go and they stay
      await t.ds.query('INSERT INTO user_system_domains (user_id, system_domain_id) VALUES ($1, $2)', [
        boss.id,
        t.domainId,
      ]);
      await t.http.delete(`${BASE}/${d.id}/`).set(sa).expect(204);
      expect((await t.ds.getRepository(UserEntity).findOneByOrFail({ id: boss.id })).system_domain_id).toBe(
        t.domainId,
      );
    });

    async function upload(id: string) {
      await t.http
        .post(`${BASE}/${id}/logo/`)
        .set(sa)
        .attach('logo', PNG, { filename: 'l.png', contentType: 'image/png' })
        .expect(201);
    }
  });
});
