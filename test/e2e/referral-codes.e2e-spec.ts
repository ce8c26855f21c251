import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { ReferralCodeEntity } from '../../src/base/model/referral-code.entity.js';
import { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { UserSystemDomainEntity } from '../../src/base/model/user-system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { WebhookEventsService } from '../../src/delivery/events/webhook-events.service.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, login, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const CODES = '/API/auth/v1/referral_codes';
const FROM_CODE = '/API/auth/v1/system_domains/referral_code';
const GOOD_PASSWORD = 'Quiet-Harbor-Lantern-42';
const DAY = 24 * 3600 * 1000;

/**
 * Referral codes (super administrators) and domains created from them (super administrators and the
 * administrators of the partner domain a code names).
 */
describe('referral codes', () => {
  let t: TestApp;
  let superH: Record<string, string>;
  let partnerDomain: SystemDomainEntity;
  let partnerAdminH: Record<string, string>;
  let partnerMemberH: Record<string, string>;
  let otherAdminH: Record<string, string>;
  let otherDomain: SystemDomainEntity;
  let template: SystemDomainEntity;
  const future = () => new Date(Date.now() + 30 * DAY).toISOString();
  const uniqueCode = (p = 'code') => `${p}-${randomUUID().slice(0, 8)}`;
  const email = (p = 'admin') => `${p}-${randomUUID().slice(0, 8)}@example.com`;
  const createCode = async (fields: Record<string, unknown> = {}) =>
    (
      await t.http
        .post(`${CODES}/`)
        .set(superH)
        .send({ code: uniqueCode(), valid_to: future(), value: 100, ...fields })
        .expect(201)
    ).body as { code: string };
  const domainBody = (extra: Record<string, unknown> = {}) => ({
    name: `Customer ${randomUUID().slice(0, 6)}`,
    country_code: 'de',
    admin_email: email(),
    admin_first_name: 'Ada',
    admin_last_name: 'Admin',
    admin_password: GOOD_PASSWORD,
    ...extra,
  });
  const domainCount = () => t.ds.getRepository(SystemDomainEntity).count();

  beforeAll(async () => {
    t = await createTestApp();
    const superAdmin = await createUser(t, { isSuperAdmin: true });
    superH = bearer((await tokenFor(t, superAdmin)).token);
    partnerDomain = await createDomain(t, { type: 'PARTNER' });
    const other = await createDomain(t);
    otherDomain = other;
    partnerAdminH = bearer(
      (await tokenFor(t, await createUser(t, { domainId: partnerDomain.id, isAdmin: true }))).token,
    );
    partnerMemberH = bearer((await tokenFor(t, await createUser(t, { domainId: partnerDomain.id }))).token);
    otherAdminH = bearer(
      (await tokenFor(t, await createUser(t, { domainId: other.id, isAdmin: true }))).token,
    );
    template = await createDomain(t, {
      is_template: true,
      type: 'CUSTOMER',
      billing_tier: 'PAYGO',
      billing_limits: { standard_users: 5, shield_enabled: true },
      features: ['search', 'ai'],
      price_list: 'pl-2027',
      primary_region: 'eu-west',
      description: 'From the template',
      marketplace_customer_id: 'template-mkt',
      crm_id: 'template-crm',
    });
  });
  afterAll(() => t.close());
  afterEach(() => {
    jest.restoreAllMocks();
  });

  describe('/v1/referral_codes/', () => {
    it('creates, lists in {objects}, reads case-insensitively and deletes a code', async () => {
      const code = uniqueCode('Spring');
      const res = await t.http
        .post(`${CODES}/`)
        .set(superH)
        .send({
          code,
          valid_to: '2099-01-01T00:00:00+00:00',
          value: 250.5,
          billing_tier: 'PRO',
          credit_expiry_days: 90,
          is_plg: true,
          manage_system_domain_id: partnerDomain.id,
          billing_customer_id: 'cus_1',
          crm_id: 'crm_1',
        })
        .expect(201);
      expect(res.body).toEqual({
        code,
        valid_to: '2099-01-01T00:00:00.000000+00:00',
        value: 250.5,
        billing_tier: 'PRO',
        credit_expiry_days: 90,
        do_not_delete: false,
        freeze_date: null,
        is_plg: true,
        manage_system_domain_id: partnerDomain.id,
        billing_customer_id: 'cus_1',
        crm_id: 'crm_1',
        date_created: expect.any(String),
        date_modified: expect.any(String),
      });
      const list = await t.http.get(`${CODES}/?per_page=1000`).set(superH).expect(200);
      expect(list.body.objects.map((c: { code: string }) => c.code)).toContain(code);
      expect(list.body).toMatchObject({ page: 1, per_page: 1000 });
      await t.http.get(`${CODES}/${code.toUpperCase()}/`).set(superH).expect(200);
      await t.http.delete(`${CODES}/${code.toLowerCase()}`).set(superH).expect(204);
      await t.http.get(`${CODES}/${code}/`).set(superH).expect(404);
      await t.http.delete(`${CODES}/${code}/`).set(superH).expect(404);
    });

    it('409 "Code already exists" for the same code in any case, also for two concurrent creations', async () => {
      const { code } = await createCode();
      const dup = await t.http
        .post(`${CODES}/`)
        .set(superH)
        .send({ code: code.toUpperCase(), valid_to: future(), value: 1 })
        .expect(409);
      expect(dup.body).toEqual({ errors: ['Code already exists'] });
      const racing = uniqueCode('race');
      const statuses = await Promise.all(
        [racing, racing.toUpperCase()].map(
          async (c) =>
            (await t.http.post(`${CODES}/`).set(superH).send({ code: c, valid_to: future(), value: 1 }))
              .status,
        ),
      );
      expect(statuses.sort()).toEqual([201, 409]);
    });

    it('refuses hostile and invalid bodies with 400, storing nothing', async () => {
      const before = await t.ds.getRepository(ReferralCodeEntity).count();
      const bad: Record<string, unknown>[] = [
        { code: 'ab', valid_to: future(), value: 1 },
        { code: 'has space', valid_to: future(), value: 1 },
        { code: 'x'.repeat(65), valid_to: future(), value: 1 },
        { code: 'nul\u0000code', valid_to: future(), value: 1 },
        { code: uniqueCode(), value: 1 },
        { code: uniqueCode(), valid_to: 'tomorrow', value: 1 },
        { code: uniqueCode(), valid_to: future(), value: 'lots' },
        { code: uniqueCode(), valid_to: future(), value: 1, billing_tier: 'GOLD' },
        { code: uniqueCode(), valid_to: future(), value: 1, manage_system_domain_id: randomUUID() },
        { code: uniqueCode(), valid_to: future(), value: 1, credit_expiry_days: 1.5 },
      ];
      for (const body of bad) {
        const res = await t.http.post(`${CODES}/`).set(superH).send(body);
        expect([res.status, body]).toEqual([400, body]);
        expect(res.body.errors).toBeDefined();
      }
      expect(await t.ds.getRepository(ReferralCodeEntity).count()).toBe(before);
    });

    it('is for super administrators only', async () => {
      const { code } = await createCode();
      for (const h of [partnerAdminH, partnerMemberH]) {
        await t.http.get(`${CODES}/`).set(h).expect(403);
        await t.http.get(`${CODES}/${code}/`).set(h).expect(403);
        await t.http
          .post(`${CODES}/`)
          .set(h)
          .send({ code: uniqueCode(), valid_to: future(), value: 1 })
          .expect(403);
        await t.http.delete(`${CODES}/${code}/`).set(h).expect(403);
      }
      await t.http.get(`${CODES}/`).expect(401);
      await t.http.get(`${CODES}/${code}/`).set(superH).expect(200);
    });
  });

  describe('POST /v1/system_domains/referral_code/{code}/', () => {
    it('creates the domain from the template with the code’s settings, and its administrator', async () => {
      const record = jest.spyOn(WebhookEventsService.prototype, 'record');
      const freeze = '2099-06-01T00:00:00+00:00';
      const { code } = await createCode({
        billing_tier: 'ENTERPRISE',
        is_plg: true,
        freeze_date: freeze,
        billing_customer_id: 'cus_code',
        crm_id: 'crm_code',
      });
      const body = domainBody({ description: 'Our media team', billing_tier: 'PRO' });
      const res = await t.http.post(`${FROM_CODE}/${code}/`).set(superH).send(body).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        name: body.name,
        base_url: t.config.http.publicBaseUrl,
        description: 'Our media team',
        status: 'ACTIVE',
        type: 'CUSTOMER',
        billing_tier: 'ENTERPRISE',
        custom_terms: false,
        admin_id: expect.any(String),
        admin_email: body.admin_email,
        admin_first_name: 'Ada',
        admin_last_name: 'Admin',
        date_created: expect.any(String),
        date_modified: expect.any(String),
      });
      const domain = await t.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id: res.body.id });
      expect(domain).toMatchObject({
        referral_code: code,
        country: 'DE',
        is_plg: true,
        billing_customer_id: 'cus_code',
        crm_id: 'crm_code',
        billing_limits: { standard_users: 5, shield_enabled: true },
        features: ['search', 'ai'],
        price_list: 'pl-2027',
        primary_region: 'eu-west',
        is_template: false,
        marketplace_customer_id: null,
        creating_user_id: res.body.admin_id,
      });
      expect(domain.freeze_date?.toISOString()).toBe('2099-06-01T00:00:00.000Z');
      expect(
        await t.ds
          .getRepository(UserSystemDomainEntity)
          .findOneByOrFail({ user_id: res.body.admin_id, system_domain_id: domain.id }),
      ).toMatchObject({ is_admin: true });
      // the new administrator signs in with the chosen password and manages the domain
      const token = await login(t, body.admin_email, GOOD_PASSWORD);
      await t.http.get('/API/users/v1/users/').set(bearer(token)).expect(200);
      const events = record.mock.calls.map(([, e]) => `${e.systemDomainId}:${e.realm}:${e.operation}`);
      expect(events).toEqual(
        expect.arrayContaining([`${domain.id}:system_domain:create`, `${domain.id}:user:create`]),
      );
    });

    it('a partner’s administrators may use the codes their domain manages; nobody else', async () => {
      const record = jest.spyOn(WebhookEventsService.prototype, 'record');
      const { code } = await createCode({ manage_system_domain_id: partnerDomain.id });
      const res = await t.http
        .post(`${FROM_CODE}/${code}/`)
        .set(partnerAdminH)
        .send(domainBody())
        .expect(201);
      // the partner hears of its customer's domain
      expect(record.mock.calls.map(([, e]) => `${e.systemDomainId}:${e.realm}`)).toContain(
        `${partnerDomain.id}:system_domain`,
      );
      expect(res.body.admin_id).toBeDefined();
      const before = await domainCount();
      const refused = await t.http
        .post(`${FROM_CODE}/${code}/`)
        .set(otherAdminH)
        .send(domainBody())
        .expect(403);
      await t.http.post(`${FROM_CODE}/${code}/`).set(partnerMemberH).send(domainBody()).expect(403);
      await t.http.post(`${FROM_CODE}/${code}/`).send(domainBody()).expect(401);
      // a code managed by nobody, and a code that does not exist, answer a partner the same 403
      const { code: unmanaged } = await createCode();
      const a = await t.http
        .post(`${FROM_CODE}/${unmanaged}/`)
        .set(partnerAdminH)
        .send(domainBody())
        .expect(403);
      const b = await t.http
        .post(`${FROM_CODE}/${uniqueCode('nope')}/`)
        .set(partnerAdminH)
        .send(domainBody())
        .expect(403);
      // and a code another partner manages
      const { code: theirs } = await createCode({ manage_system_domain_id: otherDomain.id });
      const c = await t.http
        .post(`${FROM_CODE}/${theirs}/`)
        .set(partnerAdminH)
        .send(domainBody())
        .expect(403);
      expect(a.body).toEqual(refused.body);
      expect(b.body).toEqual(refused.body);
      expect(c.body).toEqual(refused.body);
      // super administrators learn that an unknown code is unknown
      await t.http
        .post(`${FROM_CODE}/${uniqueCode('nope')}/`)
        .set(superH)
        .send(domainBody())
        .expect(404);
      expect(await domainCount()).toBe(before);
    });

    it('refuses an email that already has an account, a weak password and bad input, creating nothing', async () => {
      const { code } = await createCode();
      const existing = await createUser(t);
      const before = await domainCount();
      const users = await t.ds.getRepository(UserEntity).count();
      const taken = await t.http
        .post(`${FROM_CODE}/${code}/`)
        .set(superH)
        .send(domainBody({ admin_email: existing.email.toUpperCase() }))
        .expect(400);
      expect(taken.body.errors[0]).toMatch(/already exists/);
      const weak = await t.http
        .post(`${FROM_CODE}/${code}/`)
        .set(superH)
        .send(domainBody({ admin_password: 'password1' }))
        .expect(400);
      expect(Object.keys(weak.body.errors)).toEqual(['admin_password']);
      for (const extra of [
        { country_code: 'XX' },
        { country_code: 'DEU' },
        { name: undefined },
        { name: 'n'.repeat(201) },
        { admin_email: 'not-an-email' },
        { admin_first_name: undefined },
        { billing_tier: 'GOLD' },
        { name: 'nul\u0000name' },
      ]) {
        const res = await t.http.post(`${FROM_CODE}/${code}/`).set(superH).send(domainBody(extra));
        expect([res.status, extra]).toEqual([400, extra]);
      }
      expect(await domainCount()).toBe(before);
      expect(await t.ds.getRepository(UserEntity).count()).toBe(users);
    });

    it('without a template: a TRIAL domain with the defaults', async () => {
      await t.ds.getRepository(SystemDomainEntity).update({ id: template.id }, { is_template: false });
      try {
        const { code } = await createCode();
        const res = await t.http.post(`${FROM_CODE}/${code}/`).set(superH).send(domainBody()).expect(201);
        expect(res.body).toMatchObject({ type: 'TRIAL', billing_tier: null, description: null });
      } finally {
        await t.ds.getRepository(SystemDomainEntity).update({ id: template.id }, { is_template: true });
      }
    });
  });
});
