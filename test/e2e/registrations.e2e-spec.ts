import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Clock } from '../../src/base/common/clock.js';
import { generateSecret, sha256Hex } from '../../src/base/common/crypto/secrets.js';
import { redactPath } from '../../src/base/common/http/secret-paths.js';
import { MailOutboxEntity } from '../../src/base/model/mail-outbox.entity.js';
import { RegistrationEntity } from '../../src/base/model/registration.entity.js';
import { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { UserSystemDomainEntity } from '../../src/base/model/user-system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, login, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedSecret, mailedText } from '../utils/mail.js';

const REG = '/API/auth/v1/registrations';
const GOOD_PASSWORD = 'Quiet-Harbor-Lantern-42';
const BURST = 3;

/**
 * Self-service registration: a pending registration and a mailed link; the link creates the account and its
 * domain from the template and signs the person in. One app; each test registers from its own client address
 * (TRUST_PROXY), so the small registration budget is tested without throttling the other tests.
 */
describe('registrations', () => {
  let t: TestApp;
  let superH: Record<string, string>;
  let ipCounter = 0;
  const newIp = () => `198.51.100.${++ipCounter}`;
  const email = (p = 'newcomer') => `${p}-${randomUUID().slice(0, 8)}@example.com`;
  const body = (extra: Record<string, unknown> = {}) => ({
    country: 'NL',
    email: email(),
    first_name: 'Nora',
    last_name: 'Newcomer',
    password: GOOD_PASSWORD,
    company_name: `Studio ${randomUUID().slice(0, 6)}`,
    email_marketing_consent: true,
    ...extra,
  });
  const register = (b: Record<string, unknown>, ip = newIp()) =>
    t.http.post(`${REG}/`).set('X-Forwarded-For', ip).send(b);
  const verify = (secret: string) => t.http.post(`${REG}/verify/${secret}/`);
  const linkOf = (to: string) => mailedSecret(t, to, 'registrations/verify');
  const counts = async () => ({
    registrations: await t.ds.getRepository(RegistrationEntity).count(),
    mails: await t.ds.getRepository(MailOutboxEntity).count(),
    users: await t.ds.getRepository(UserEntity).count(),
    domains: await t.ds.getRepository(SystemDomainEntity).count(),
  });

  beforeAll(async () => {
    t = await createTestApp({
      TRUST_PROXY: '1',
      RATE_LIMIT_REGISTRATION_BURST: String(BURST),
      RATE_LIMIT_REGISTRATION_PER_SECOND: '0.001',
    });
    // the template of new domains (the oldest is_template domain)
    await createDomain(t, {
      is_template: true,
      type: 'CUSTOMER',
      billing_tier: 'PRO',
      features: ['trial-assets'],
      primary_region: 'eu-central',
    });
    superH = bearer((await tokenFor(t, await createUser(t, { isSuperAdmin: true }))).token);
  });
  afterAll(() => t.close());
  afterEach(() => {
    jest.restoreAllMocks();
    t.get(Clock).reset();
  });

  describe('POST /v1/registrations/ and the verification link', () => {
    it('stores a pending registration (hashes only), mails the link; the link creates the domain and signs in', async () => {
      const b = body({ billing_customer_id: 'cus_reg', payments_id: 'pay_1' });
      const res = await register(b).expect(201);
      expect(res.body).toEqual({
        id: expect.any(String),
        base_url: t.config.http.publicBaseUrl,
        date_created: expect.any(String),
        country: 'NL',
        email: b.email,
        first_name: 'Nora',
        last_name: 'Newcomer',
        company_name: b.company_name,
        email_marketing_consent: true,
        referral_code: null,
        billing_customer_id: 'cus_reg',
        billing_subscription_id: null,
        payments_id: 'pay_1',
        marketplace_signup_nonce: null,
        // the published model requires the field (request and answer share it): null, never the password
        password: null,
      });
      expect(res.text).not.toContain(String(b.password));
      expect(await t.ds.getRepository(UserEntity).existsBy({ email: b.email })).toBe(false);
      const secret = await linkOf(b.email);
      const row = await t.ds
        .getRepository(RegistrationEntity)
        .createQueryBuilder('r')
        .addSelect(['r.password_hash', 'r.secret_sha256'])
        .where('r.id = :id', { id: res.body.id })
        .getOneOrFail();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      expect(row.secret_sha256).toBe(sha256Hex(secret));

      const v = await verify(secret).expect(201);
      expect(v.body).toEqual({
        auto_login: true,
        domain_data: {
          id: expect.any(String),
          name: b.company_name,
          base_url: t.config.http.publicBaseUrl,
          description: null,
          status: 'ACTIVE',
          type: 'CUSTOMER',
          billing_tier: 'PRO',
          custom_terms: false,
          admin_id: expect.any(String),
          admin_email: b.email,
          admin_first_name: 'Nora',
          admin_last_name: 'Newcomer',
          date_created: expect.any(String),
          date_modified: expect.any(String),
        },
        login_data: { app_id: expect.any(String), token: expect.any(String) },
      });
      const domain = await t.ds
        .getRepository(SystemDomainEntity)
        .findOneByOrFail({ id: v.body.domain_data.id });
      expect(domain).toMatchObject({
        country: 'NL',
        features: ['trial-assets'],
        primary_region: 'eu-central',
        billing_customer_id: 'cus_reg',
        payments_id: 'pay_1',
        creating_user_id: v.body.domain_data.admin_id,
        is_template: false,
      });
      expect(
        await t.ds
          .getRepository(UserSystemDomainEntity)
          .findOneByOrFail({ user_id: v.body.domain_data.admin_id, system_domain_id: domain.id }),
      ).toMatchObject({ is_admin: true });
      const me = await t.http
        .get('/API/users/v1/users/current/')
        .set(bearer(v.body.login_data.token))
        .expect(200);
      expect(me.body).toMatchObject({ email: b.email, system_domain_id: domain.id, is_admin: true });
      // the mailed link proved the address: the account starts verified (the database's now())
      const account = await t.ds.getRepository(UserEntity).findOneByOrFail({ email: b.email });
      expect(account.email_verified_at).toBeInstanceOf(Date);
      expect(Math.abs(account.email_verified_at!.getTime() - Date.now())).toBeLessThan(60_000);
      // the password chosen at registration is the account's
      await login(t, b.email, GOOD_PASSWORD);

      // replay: 419, and no second domain
      const before = await counts();
      const replay = await verify(secret).expect(419);
      expect(replay.body).toEqual({ errors: ['Verification link expired or already used'] });
      expect(await counts()).toEqual(before);
    });

    it('names the domain after the person without a company, and answers with and without the slash', async () => {
      const b = body({ company_name: null });
      await t.http.post(REG).set('X-Forwarded-For', newIp()).send(b).expect(201);
      const v = await t.http.post(`${REG}/verify/${await linkOf(b.email)}`).expect(201);
      expect(v.body.domain_data.name).toBe("Nora's domain");
    });

    it('an email with an account: the same answer, nothing stored, and the other mail', async () => {
      const existing = await createUser(t);
      const before = await counts();
      const res = await register(body({ email: existing.email.toUpperCase() })).expect(201);
      const fresh = await register(body()).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(Object.keys(fresh.body).sort());
      expect(res.body.email).toBe(existing.email);
      const after = await counts();
      expect(after.registrations).toBe(before.registrations + 1); // the fresh one only
      expect(after.users).toBe(before.users);
      expect(await t.ds.getRepository(RegistrationEntity).existsBy({ email: existing.email })).toBe(false);
      const text = await mailedText(t, existing.email);
      expect(text).toMatch(/already has an account/);
      expect(text).not.toMatch(/registrations\/verify/);
      expect(await t.ds.getRepository(UserSystemDomainEntity).countBy({ user_id: existing.id })).toBe(1);
      // that mail carries no secret: the existing account's address is not proved by it
      expect(
        (await t.ds.getRepository(UserEntity).findOneByOrFail({ id: existing.id })).email_verified_at,
      ).toBeNull();
    });

    it('a second registration of the email supersedes the first: its link answers 419', async () => {
      const b = body();
      await register(b).expect(201);
      const first = await linkOf(b.email);
      await register({ ...b, company_name: 'Second try' }).expect(201);
      const second = await linkOf(b.email);
      expect(second).not.toBe(first);
      await verify(first).expect(419);
      await verify(second.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))).expect(404);
      // refused links make no account, verified or not
      expect(await t.ds.getRepository(UserEntity).existsBy({ email: b.email })).toBe(false);
      const v = await verify(second).expect(201);
      expect(v.body.domain_data.name).toBe('Second try');
      expect(
        (await t.ds.getRepository(UserEntity).findOneByOrFail({ email: b.email })).email_verified_at,
      ).toBeInstanceOf(Date);
    });

    it('two concurrent verifications of one link create exactly one domain', async () => {
      const b = body();
      await register(b).expect(201);
      const secret = await linkOf(b.email);
      const before = await counts();
      const statuses = (await Promise.all([verify(secret), verify(secret), verify(secret)])).map(
        (r) => r.status,
      );
      expect(statuses.sort()).toEqual([201, 419, 419]);
      expect((await counts()).domains).toBe(before.domains + 1);
    });

    it('never logs the link’s secret, and the access log redacts the verify path', async () => {
      const logged: string[] = [];
      for (const level of ['log', 'warn', 'error', 'debug', 'verbose'] as const) {
        jest.spyOn(Logger.prototype, level).mockImplementation((m: unknown) => {
          logged.push(String(m));
        });
      }
      const b = body();
      await register(b).expect(201);
      const secret = await linkOf(b.email);
      await verify(secret).expect(201);
      expect(logged.join('\n')).not.toContain(secret);
      expect(redactPath(`${REG}/verify/${secret}/`)).toBe(`${REG}/verify/[redacted]/`);
    });
  });

  describe('referral codes and marketplace nonces at registration', () => {
    it('a valid code is applied; unknown and expired codes get the same 400 naming the field', async () => {
      const code = `REG-${randomUUID().slice(0, 8)}`;
      await t.http
        .post('/API/auth/v1/referral_codes/')
        .set(superH)
        .send({
          code,
          valid_to: '2099-01-01T00:00:00+00:00',
          value: 10,
          billing_tier: 'ENTERPRISE',
          is_plg: true,
        })
        .expect(201);
      const expired = `OLD-${randomUUID().slice(0, 8)}`;
      await t.http
        .post('/API/auth/v1/referral_codes/')
        .set(superH)
        .send({ code: expired, valid_to: '2020-01-01T00:00:00+00:00', value: 10 })
        .expect(201);
      const before = await counts();
      const unknown = await register(body({ referral_code: 'NO-SUCH-CODE' })).expect(400);
      const old = await register(body({ referral_code: expired })).expect(400);
      expect(unknown.body).toEqual(old.body);
      expect(Object.keys(unknown.body.errors)).toEqual(['referral_code']);
      expect(await counts()).toEqual(before);

      const b = body({ referral_code: code.toLowerCase() });
      await register(b).expect(201);
      const v = await verify(await linkOf(b.email)).expect(201);
      expect(v.body.domain_data.billing_tier).toBe('ENTERPRISE');
      expect(
        await t.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id: v.body.domain_data.id }),
      ).toMatchObject({ referral_code: code, is_plg: true });
    });

    it('a marketplace nonce is checked up front and consumed by the verification', async () => {
      const before = await counts();
      await register(body({ marketplace_signup_nonce: generateSecret() })).expect(400);
      expect(await counts()).toEqual(before);
      const nonce = generateSecret();
      const inAnHour = new Date(Date.now() + 3600_000);
      await t.ds.query(
        `INSERT INTO marketplace_nonces (cloud, jti, nonce_sha256, customer_id, entitlement_id, token_expires, expires)
         VALUES ('aws', $1, $2, 'mkt-cust', 'mkt-ent', $3, $3)`,
        [randomUUID(), sha256Hex(nonce), inAnHour],
      );
      const b = body({ marketplace_signup_nonce: nonce });
      await register(b).expect(201);
      // the pending registration keeps no secret in the clear: the nonce only as its SHA-256
      const stored = JSON.stringify(
        await t.ds.query('SELECT * FROM registrations WHERE email = $1', [b.email]),
      );
      expect(stored).not.toContain(nonce);
      expect(stored).toContain(sha256Hex(nonce));
      const v = await verify(await linkOf(b.email)).expect(201);
      expect(
        await t.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id: v.body.domain_data.id }),
      ).toMatchObject({ marketplace_customer_id: 'mkt-cust', marketplace_entitlement_id: 'mkt-ent' });
    });
  });

  describe('refusals', () => {
    it('weak passwords, hostile and invalid input: 400 and nothing stored', async () => {
      const before = await counts();
      const common = await register(body({ password: 'password123' })).expect(400);
      expect(Object.keys(common.body.errors)).toEqual(['password']);
      for (const extra of [
        { country: 'XX' },
        { country: 'NLD' },
        { country: undefined },
        { email: 'not an email' },
        { email: undefined },
        { first_name: 'n'.repeat(201) },
        { first_name: '' },
        { last_name: 'nul\u0000byte' },
        { company_name: 'c'.repeat(201) },
        { password: 'p'.repeat(1025) },
        { email_marketing_consent: 'yes' },
        { referral_code: { $ne: null } },
      ]) {
        const res = await register(body(extra));
        expect([res.status, extra]).toEqual([400, extra]);
        expect(res.body.errors).toBeDefined();
      }
      expect(await counts()).toEqual(before);
    });

    it('is rate-limited per client address: 429 with Retry-After', async () => {
      const ip = newIp();
      for (let i = 0; i < BURST; i++) await register(body(), ip).expect(201);
      const res = await register(body(), ip).expect(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body.errors).toBeDefined();
      await register(body(), newIp()).expect(201);
    });

    it('switched off: registering and verifying answer 403, nothing changes', async () => {
      const b = body();
      await register(b).expect(201);
      const secret = await linkOf(b.email);
      t.config.registration.enabled = false;
      try {
        const before = await counts();
        const res = await register(body()).expect(403);
        expect(res.body).toEqual({ errors: ['Registration is switched off'] });
        await verify(secret).expect(403);
        expect(await counts()).toEqual(before);
      } finally {
        t.config.registration.enabled = true;
      }
      await verify(secret).expect(201);
    });
  });

  describe('GET /v1/registrations/countries/', () => {
    it('lists ISO 3166-1 countries by name, in pages up to 1000, with a query', async () => {
      const first = await t.http.get(`${REG}/countries/`).expect(200);
      // the 249 ISO 3166-1 countries, and Kosovo (XK, user-assigned) which the data package also carries
      expect(first.body).toMatchObject({ page: 1, per_page: 10, total: 250 });
      expect(first.body.objects).toHaveLength(10);
      const all = await t.http.get(`${REG}/countries/?per_page=1000`).expect(200);
      expect(all.body.objects).toHaveLength(250);
      const names = all.body.objects.map((c: { name: string }) => c.name);
      expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'en')));
      expect(all.body.objects.find((c: { alpha2: string }) => c.alpha2 === 'TW')).toEqual({
        name: 'Taiwan, Province of China',
        alpha2: 'TW',
        alpha3: 'TWN',
        apolitical_name: 'Taiwan',
        numeric: '158',
      });
      const q = await t.http.get(`${REG}/countries?query=GERMANY`).expect(200);
      expect(q.body.objects).toEqual([
        { name: 'Germany', alpha2: 'DE', alpha3: 'DEU', apolitical_name: 'Germany', numeric: '276' },
      ]);
      expect((await t.http.get(`${REG}/countries/?query=de`).expect(200)).body.objects[0].alpha2).toBe('DE');
      await t.http.get(`${REG}/countries/?per_page=1001`).expect(400);
      await t.http.get(`${REG}/countries/?query=${'x'.repeat(101)}`).expect(400);
    });
  });

  describe('/v1/registrations/content/', () => {
    it('operators manage entries; anyone reads the entry of a page route', async () => {
      const slug = `trial-${randomUUID().slice(0, 8)}`;
      const route = `/signup/${slug}`;
      const entry = {
        slug,
        page_route: route,
        caption: 'Start free',
        category: 'trial',
        image: 'https://cdn.example.com/trial.png',
        name: 'Trial',
      };
      const created = await t.http.post(`${REG}/content/`).set(superH).send(entry).expect(201);
      expect(created.body).toMatchObject(entry);
      const pub = await t.http.get(`${REG}/content/`).query({ page_route: route }).expect(200);
      expect(pub.body).toEqual({
        slug,
        caption: 'Start free',
        category: 'trial',
        image: 'https://cdn.example.com/trial.png',
        name: 'Trial',
      });
      await t.http.get(`${REG}/content/`).expect(400);
      await t.http.get(`${REG}/content/`).query({ page_route: '/nowhere' }).expect(404);
      await t.http
        .post(`${REG}/content/`)
        .set(superH)
        .send({ ...entry, page_route: '/other' })
        .expect(409);
      const list = await t.http.get(`${REG}/content/entries/`).set(superH).expect(200);
      expect(list.body.objects.map((e: { slug: string }) => e.slug)).toContain(slug);
      const put = await t.http
        .put(`${REG}/content/${slug}/`)
        .set(superH)
        .send({ page_route: `${route}-v2`, caption: 'Changed' })
        .expect(200);
      expect(put.body).toMatchObject({ slug, page_route: `${route}-v2`, caption: 'Changed', image: null });
      await t.http.get(`${REG}/content/`).query({ page_route: route }).expect(404);
      await t.http.delete(`${REG}/content/${slug}/`).set(superH).expect(204);
      await t.http.delete(`${REG}/content/${slug}/`).set(superH).expect(404);
      await t.http.put(`${REG}/content/${slug}/`).set(superH).send({ page_route: '/x' }).expect(404);
    });

    it('refuses non-operators and bad entries', async () => {
      const adminH = bearer((await tokenFor(t, await createUser(t, { isAdmin: true }))).token);
      const ok = { slug: `s-${randomUUID().slice(0, 8)}`, page_route: `/p/${randomUUID()}` };
      await t.http.post(`${REG}/content/`).set(adminH).send(ok).expect(403);
      await t.http.get(`${REG}/content/entries/`).set(adminH).expect(403);
      await t.http.post(`${REG}/content/`).send(ok).expect(401);
      for (const extra of [
        { image: 'http://cdn.example.com/x.png' },
        { image: 'javascript:alert(1)' },
        { slug: 'Has Spaces' },
        { page_route: 'no-leading-slash' },
        { name: 'n'.repeat(201) },
      ]) {
        const res = await t.http
          .post(`${REG}/content/`)
          .set(superH)
          .send({ ...ok, ...extra });
        expect([res.status, extra]).toEqual([400, extra]);
      }
    });
  });
});
