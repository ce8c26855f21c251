import { jest } from '@jest/globals';
import { createHmac, randomBytes } from 'node:crypto';
import { Clock } from '../../src/base/common/clock.js';
import { sha256Hex } from '../../src/base/common/crypto/secrets.js';
import { MarketplaceService } from '../../src/sign-in/marketplace/marketplace.service.js';
import { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { TokenEntity } from '../../src/base/model/token.entity.js';
import type { UserEntity } from '../../src/base/model/user.entity.js';
import { type WebhookEvent, WebhookEventsService } from '../../src/delivery/events/webhook-events.service.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedText } from '../utils/mail.js';
import { b64url, MarketplaceIssuer, unsignedToken } from '../utils/marketplace-issuer.js';

const M = '/API/auth/v1/marketplace';
const LOGIN = '/API/auth/v1/auth/simple/login/';
const MULTI = '/API/auth/v1/auth/multidomain/login/';
const GENERATE = '/API/auth/v1/auth/otp/generate/';
const FIELD_A = 'x-vendor_a-marketplace-token';

/**
 * Cloud-marketplace signup: marketplace JWTs (minted here with the test's own keys, published through a
 * local JWKS server or a PEM file) become single-use signup nonces that a link, a sign-in or registration
 * consumes to record the marketplace customer and entitlement on one domain.
 */
describe('marketplace signup', () => {
  let t: TestApp;
  let a: MarketplaceIssuer; // vendor_a, keys from its JWKS URL
  let b: MarketplaceIssuer; // vendor_b, keys from its JWKS URL
  let c: MarketplaceIssuer; // vendor_c, key from a PEM file
  let events: WebhookEvent[];

  const nonceRows = async () =>
    Number((await t.ds.query('SELECT count(*) AS n FROM marketplace_nonces'))[0].n);
  const domainOf = (id: string) => t.ds.getRepository(SystemDomainEntity).findOneByOrFail({ id });
  const signup = (body: Record<string, unknown>) => t.http.post(`${M}/signup/`).send(body);
  /** A fresh nonce from vendor_a (or `issuer` as `cloud`), and the claims behind it. */
  const nonceFor = async (issuer = a, cloud = 'vendor_a', claims: Record<string, unknown> = {}) => {
    const res = await signup({ [`x-${cloud}-marketplace-token`]: await issuer.mint({ claims }) }).expect(200);
    return res.body.marketplace_signup_nonce as string;
  };
  const usable = async (nonce: string) =>
    t
      .get(MarketplaceService)
      .assertUsable(nonce)
      .then(
        () => true,
        () => false,
      );
  const adminOf = async (domainId: string) => {
    const user = await createUser(t, { domainId, isAdmin: true });
    return { user, h: bearer((await tokenFor(t, user, { domainId })).token) };
  };
  const expectError = (
    res: { status: number; body: unknown; headers: Record<string, string> },
    status: number,
    code: string,
  ) => {
    expect({ status: res.status, code: res.headers['x-error-code'] }).toEqual({ status, code });
    expect(res.body).toEqual({ errors: [expect.any(String)] });
  };

  beforeAll(async () => {
    [a, b, c] = await Promise.all([
      new MarketplaceIssuer('a').start(),
      new MarketplaceIssuer('b').start(),
      new MarketplaceIssuer('c').start(),
    ]);
    t = await createTestApp({
      ...a.env('vendor_a'),
      ...b.env('vendor_b'),
      ...c.env('vendor_c', 'file'),
      // the cloud the published clients name in their field x-gcp-marketplace-token
      ...b.env('gcp'),
      // a marketplace whose key set cannot be fetched (nothing listens on port 1)
      MARKETPLACE_VENDOR_D_ISSUER: 'https://marketplace.example/d',
      MARKETPLACE_VENDOR_D_AUDIENCE: 'portcullis-test',
      MARKETPLACE_VENDOR_D_JWKS_URL: 'http://127.0.0.1:1/jwks.json',
    });
    events = [];
    const svc = t.get(WebhookEventsService);
    const record = svc.record.bind(svc);
    jest.spyOn(svc, 'record').mockImplementation(async (em, event) => {
      events.push(event);
      return record(em, event);
    });
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([a.stop(), b.stop(), c.stop()]);
  });
  afterEach(() => t.get(Clock).reset());

  describe('POST /v1/marketplace/signup/', () => {
    it('exchanges a valid token for a 256-bit nonce stored only as SHA-256', async () => {
      const token = await a.mint({ claims: { sub: 'cust-1', entitlement_id: 'ent-1' } });
      const res = await signup({ [FIELD_A]: token }).expect(200);
      const nonce = res.body.marketplace_signup_nonce as string;
      expect(res.body).toEqual({
        marketplace_signup_nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        cloud: 'vendor_a',
        expires: expect.stringMatching(/\+00:00$/),
        registration_url: `${t.config.http.publicBaseUrl}/registrations?marketplace_signup_nonce=${nonce}`,
      });
      const rows = await t.ds.query(
        'SELECT * FROM marketplace_nonces WHERE jti IS NOT NULL AND customer_id = $1',
        ['cust-1'],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ cloud: 'vendor_a', entitlement_id: 'ent-1', used_at: null });
      expect(rows[0].nonce_sha256).toBe(sha256Hex(nonce));
      expect(JSON.stringify(rows[0])).not.toContain(nonce);
      // about an hour
      const ttl = new Date(res.body.expires).getTime() - Date.now();
      expect(ttl).toBeGreaterThan(3500_000);
      expect(ttl).toBeLessThanOrEqual(3600_000);
    });

    it('reads the published field x-gcp-marketplace-token for the cloud configured as gcp, and only for it', async () => {
      const res = await signup({ 'x-gcp-marketplace-token': await b.mint() }).expect(200);
      expect(res.body.cloud).toBe('gcp');
      // a token another cloud signed is refused under this field
      expectError(
        await signup({ 'x-gcp-marketplace-token': await a.mint() }),
        400,
        'marketplace.TOKEN_INVALID',
      );
      // two token fields: which cloud is meant is unclear, so neither is read
      expectError(
        await signup({ 'x-gcp-marketplace-token': await b.mint(), [FIELD_A]: await a.mint() }),
        400,
        'marketplace.TOKEN_MISSING',
      );
    });

    it('accepts ES256 tokens from the JWKS and RS256 tokens checked against a PEM key file', async () => {
      await signup({ [FIELD_A]: await a.mint({ alg: 'ES256' }) }).expect(200);
      const res = await signup({ 'x-vendor_c-marketplace-token': await c.mint() }).expect(200);
      expect(res.body.cloud).toBe('vendor_c');
    });

    it('refuses forged, foreign, expired and malformed tokens, and records nothing', async () => {
      const before = await nonceRows();
      const now = Math.floor(Date.now() / 1000);
      const claims = {
        iss: a.issuer,
        aud: a.audience,
        exp: now + 300,
        jti: 'forged-jti',
        sub: 'c',
        entitlement_id: 'e',
      };
      const hs256 = (() => {
        // the algorithm-confusion attack: HMAC keyed with the published public key's bytes
        const input = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: 'rsa-1' }))}.${b64url(JSON.stringify(claims))}`;
        return `${input}.${createHmac('sha256', a.publicKeyPem).update(input).digest('base64url')}`;
      })();
      const bad: [string, string][] = [
        ['wrong signature', await a.mint({ foreignKey: true })],
        ['wrong issuer', await a.mint({ claims: { iss: b.issuer } })],
        ['wrong audience', await a.mint({ claims: { aud: 'someone-else' } })],
        ['expired', await a.mint({ expiresIn: -120 })],
        ['alg none', unsignedToken(claims)],
        ['HS256 keyed with the public key', hs256],
        ['no jti', await a.mint({ claims: { jti: undefined } })],
        ['no exp', await a.mint({ claims: { exp: undefined } })],
        ['no customer', await a.mint({ claims: { sub: undefined } })],
        ['no entitlement', await a.mint({ claims: { entitlement_id: undefined } })],
        ['entitlement not a string', await a.mint({ claims: { entitlement_id: 42 } })],
        ['not yet valid', await a.mint({ claims: { nbf: now + 3600 } })],
        ['another marketplace’s token', await b.mint()],
        ['garbage', 'not.a.jwt'],
        [
          'tampered payload',
          (await a.mint()).replace(/\.([^.]+)\./, (_m, p: string) => `.${p.slice(0, -2)}AA.`),
        ],
      ];
      for (const [why, token] of bad) {
        const res = await signup({ [FIELD_A]: token });
        expect({ why, status: res.status, code: res.headers['x-error-code'] }).toEqual({
          why,
          status: 400,
          code: 'marketplace.TOKEN_INVALID',
        });
        expect(res.body).toEqual({ errors: ['Invalid marketplace token'] });
      }
      expect(await nonceRows()).toBe(before);
    });

    it('accepts a token once: a replayed jti is a 400', async () => {
      const token = await a.mint();
      await signup({ [FIELD_A]: token }).expect(200);
      const before = await nonceRows();
      expectError(await signup({ [FIELD_A]: token }), 400, 'marketplace.TOKEN_REPLAYED');
      // the same jti from another marketplace is that marketplace's own business
      const jti = 'shared-jti-' + randomBytes(4).toString('hex');
      await signup({ [FIELD_A]: await a.mint({ claims: { jti } }) }).expect(200);
      await signup({ 'x-vendor_b-marketplace-token': await b.mint({ claims: { jti } }) }).expect(200);
      expect(await nonceRows()).toBe(before + 2);
    });

    it('a marketplace whose keys cannot be fetched answers 503 (not the buyer’s fault), recording nothing', async () => {
      const before = await nonceRows();
      const res = await signup({ 'x-vendor_d-marketplace-token': await a.mint() });
      expectError(res, 503, 'marketplace.KEYS_UNAVAILABLE');
      expect(await nonceRows()).toBe(before);
    });

    it('a token of marketplace A posted as marketplace B’s field is refused', async () => {
      expectError(
        await signup({ 'x-vendor_b-marketplace-token': await a.mint() }),
        400,
        'marketplace.TOKEN_INVALID',
      );
    });

    it('names an unconfigured marketplace, and wants exactly one token field', async () => {
      const res = await signup({ 'x-vendor_z-marketplace-token': await a.mint() });
      expectError(res, 400, 'marketplace.NOT_CONFIGURED');
      expect(res.body).toEqual({ errors: ['marketplace vendor_z is not configured'] });
      expectError(await signup({}), 400, 'marketplace.TOKEN_MISSING');
      expectError(await signup({ token: await a.mint() }), 400, 'marketplace.TOKEN_MISSING');
      expectError(
        await signup({ [FIELD_A]: await a.mint(), 'x-vendor_b-marketplace-token': await b.mint() }),
        400,
        'marketplace.TOKEN_MISSING',
      );
      expectError(await signup({ [FIELD_A]: ['a', 'b'] }), 400, 'marketplace.TOKEN_MISSING');
      expectError(await signup({ [FIELD_A]: 'x'.repeat(9000) }), 400, 'marketplace.TOKEN_INVALID');
      // __proto__ and friends are plain field names, never a cloud
      expectError(
        await signup(JSON.parse('{"x-__proto__-marketplace-token":"x"}')),
        400,
        'marketplace.NOT_CONFIGURED',
      );
      expectError(
        await signup({ 'x-hasOwnProperty-marketplace-token': 'x' }),
        400,
        'marketplace.NOT_CONFIGURED',
      );
    });
  });

  describe('POST /v1/marketplace/{cloud}/signup/ (the buyer’s browser form)', () => {
    const form = (cloud: string) => t.http.post(`${M}/${cloud}/signup/`);

    it('multipart/form-data: 302 to the registration page carrying a working nonce', async () => {
      const res = await form('vendor_a')
        .field(FIELD_A, await a.mint())
        .expect(302);
      const location = new URL(res.headers.location);
      expect(`${location.origin}${location.pathname}`).toBe(`${t.config.http.publicBaseUrl}/registrations`);
      const nonce = location.searchParams.get('marketplace_signup_nonce')!;
      expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await usable(nonce)).toBe(true);
    });

    it('urlencoded with the plain `token` field works too', async () => {
      const res = await form('vendor_b')
        .type('form')
        .send({ token: await b.mint() })
        .expect(302);
      expect(res.headers.location).toMatch(/\/registrations\?marketplace_signup_nonce=[A-Za-z0-9_-]{43}$/);
      expect(res.headers['cache-control']).toBe('no-store');
      // a client that asks for JSON gets the MarketplaceSignup answer, and its errors as errors
      const json = await form('vendor_b')
        .set('Accept', 'application/json')
        .type('form')
        .send({ 'x-vendor_b-marketplace-token': await b.mint() })
        .expect(200);
      expect(json.body).toMatchObject({ cloud: 'vendor_b', marketplace_signup_nonce: expect.any(String) });
      expectError(
        await form('vendor_b').set('Accept', 'application/json').type('form').send({ token: 'bad' }),
        400,
        'marketplace.TOKEN_INVALID',
      );
    });

    it('a refused token lands on the registration page with marketplace_error, and records nothing', async () => {
      const before = await nonceRows();
      const replayed = await a.mint();
      await form('vendor_a').field(FIELD_A, replayed).expect(302);
      const cases: [() => Promise<{ headers: Record<string, string> }>, string][] = [
        [async () => form('vendor_a').field(FIELD_A, await a.mint({ expiresIn: -60 })), 'invalid_token'],
        [async () => form('vendor_a').field(FIELD_A, await a.mint({ foreignKey: true })), 'invalid_token'],
        // marketplace A's token posted to B's path
        [async () => form('vendor_b').field('token', await a.mint()), 'invalid_token'],
        [async () => form('vendor_a').field(FIELD_A, replayed), 'token_replayed'],
        [async () => form('vendor_a').field('something', 'else'), 'token_missing'],
        [async () => form('vendor_a').type('form').send({}), 'token_missing'],
      ];
      for (const [post, error] of cases) {
        const res = await post();
        expect((res as unknown as { status: number }).status).toBe(302);
        expect(res.headers.location).toBe(
          `${t.config.http.publicBaseUrl}/registrations?marketplace_error=${error}`,
        );
      }
      expect(await nonceRows()).toBe(before + 1);
    });

    it('an unconfigured marketplace is a 404 naming it; files and oversized fields are refused', async () => {
      const res = await form('vendor_z')
        .field('token', await a.mint())
        .expect(404);
      expect(res.body).toEqual({ errors: ['marketplace vendor_z is not configured'] });
      expect((await form('Vendor_A!').field('token', 'x')).status).toBe(404);
      const before = await nonceRows();
      const file = await form('vendor_a')
        .field(FIELD_A, await a.mint())
        .attach('upload', Buffer.from('x'), 'x.txt');
      expect(file.status).toBe(400);
      expect(file.body).toEqual({ errors: [expect.any(String)] });
      const big = await form('vendor_a').field(FIELD_A, 'x'.repeat(20_000));
      expect(big.status).toBe(400);
      expect(await nonceRows()).toBe(before);
    });
  });

  describe('POST /v1/marketplace/link/ and /v1/marketplace/{cloud}/link/', () => {
    it('a domain administrator links their domain: the ids land on it, a system_domains event is recorded', async () => {
      const domain = await createDomain(t);
      const { h } = await adminOf(domain.id);
      const nonce = await nonceFor(a, 'vendor_a', { sub: 'cust-link', entitlement_id: 'ent-link' });
      events.length = 0;
      const res = await t.http
        .post(`${M}/link/`)
        .set(h)
        .send({ marketplace_signup_nonce: nonce })
        .expect(200);
      expect(res.body).toEqual({
        system_domain_id: domain.id,
        cloud: 'vendor_a',
        marketplace_customer_id: 'cust-link',
        marketplace_entitlement_id: 'ent-link',
      });
      expect(await domainOf(domain.id)).toMatchObject({
        marketplace_customer_id: 'cust-link',
        marketplace_entitlement_id: 'ent-link',
      });
      expect(events).toEqual([
        expect.objectContaining({
          systemDomainId: domain.id,
          objectId: domain.id,
          realm: 'system_domain',
          operation: 'update',
          eventType: 'system_domains',
          requestId: expect.any(String),
        }),
      ]);
      const [row] = await t.ds.query(
        'SELECT system_domain_id, used_at FROM marketplace_nonces WHERE nonce_sha256 = $1',
        [sha256Hex(nonce)],
      );
      expect(row.system_domain_id).toBe(domain.id);
      expect(row.used_at).not.toBeNull();
      // the nonce is spent: linking again (here or anywhere) is a 400
      expectError(
        await t.http.post(`${M}/link/`).set(h).send({ marketplace_signup_nonce: nonce }),
        400,
        'marketplace.NONCE_INVALID',
      );
      const other = await adminOf((await createDomain(t)).id);
      expectError(
        await t.http.post(`${M}/link/`).set(other.h).send({ marketplace_signup_nonce: nonce }),
        400,
        'marketplace.NONCE_INVALID',
      );
    });

    it('guessed, malformed and expired nonces are 400 and change nothing', async () => {
      const domain = await createDomain(t);
      const { user, h } = await adminOf(domain.id);
      for (const guess of [randomBytes(32).toString('base64url'), 'short', 'x'.repeat(43), '']) {
        expectError(
          await t.http.post(`${M}/link/`).set(h).send({ marketplace_signup_nonce: guess }),
          400,
          'marketplace.NONCE_INVALID',
        );
      }
      expect(
        (
          await t.http
            .post(`${M}/link/`)
            .set(h)
            .send({ marketplace_signup_nonce: 'x'.repeat(501) })
        ).status,
      ).toBe(400);
      expect((await t.http.post(`${M}/link/`).set(h).send({})).status).toBe(400);
      const nonce = await nonceFor();
      t.get(Clock).advance(3601_000);
      const later = bearer((await tokenFor(t, user, { domainId: domain.id, expiresInSeconds: 7200 })).token);
      expectError(
        await t.http.post(`${M}/link/`).set(later).send({ marketplace_signup_nonce: nonce }),
        400,
        'marketplace.NONCE_INVALID',
      );
      expect(await domainOf(domain.id)).toMatchObject({
        marketplace_customer_id: null,
        marketplace_entitlement_id: null,
      });
    });

    it('only administrators link, and only their own domain', async () => {
      const domain = await createDomain(t);
      const otherDomain = await createDomain(t);
      const nonce = await nonceFor();
      const member = await createUser(t, { domainId: domain.id });
      const memberH = bearer((await tokenFor(t, member, { domainId: domain.id })).token);
      expect(
        (await t.http.post(`${M}/link/`).set(memberH).send({ marketplace_signup_nonce: nonce })).status,
      ).toBe(403);
      expect((await t.http.post(`${M}/link/`).send({ marketplace_signup_nonce: nonce })).status).toBe(401);
      // administrator of domain, plain member of otherDomain: with otherDomain's token, not an administrator
      const admin = await createUser(t, { domainId: domain.id, isAdmin: true, alsoIn: [otherDomain.id] });
      const crossH = bearer((await tokenFor(t, admin, { domainId: otherDomain.id })).token);
      expect(
        (await t.http.post(`${M}/link/`).set(crossH).send({ marketplace_signup_nonce: nonce })).status,
      ).toBe(403);
      expect(await usable(nonce)).toBe(true);
      expect(await domainOf(otherDomain.id)).toMatchObject({ marketplace_customer_id: null });
      // with the administered domain's token it links that domain, and only that one
      const ownH = bearer((await tokenFor(t, admin, { domainId: domain.id })).token);
      await t.http.post(`${M}/link/`).set(ownH).send({ marketplace_signup_nonce: nonce }).expect(200);
      expect((await domainOf(domain.id)).marketplace_customer_id).not.toBeNull();
      expect(await domainOf(otherDomain.id)).toMatchObject({ marketplace_customer_id: null });
    });

    it('a domain linked to another marketplace customer answers 409 and keeps the nonce usable', async () => {
      const domain = await createDomain(t);
      const { h } = await adminOf(domain.id);
      const first = await nonceFor(a, 'vendor_a', { sub: 'cust-first' });
      await t.http.post(`${M}/link/`).set(h).send({ marketplace_signup_nonce: first }).expect(200);
      const second = await nonceFor(a, 'vendor_a', { sub: 'cust-second' });
      expectError(
        await t.http.post(`${M}/link/`).set(h).send({ marketplace_signup_nonce: second }),
        409,
        'marketplace.ALREADY_LINKED',
      );
      expect(await usable(second)).toBe(true);
      expect((await domainOf(domain.id)).marketplace_customer_id).toBe('cust-first');
      // the same customer with a new entitlement updates it
      // signing in with it leaves both alone too
      const { user } = await adminOf(domain.id);
      await t.http
        .post(LOGIN)
        .send({ email: user.email, password: DEFAULT_PASSWORD, marketplace_signup_nonce: second })
        .expect(201);
      expect(await usable(second)).toBe(true);
      expect((await domainOf(domain.id)).marketplace_customer_id).toBe('cust-first');
      const renewal = await nonceFor(a, 'vendor_a', { sub: 'cust-first', entitlement_id: 'ent-renewed' });
      await t.http.post(`${M}/link/`).set(h).send({ marketplace_signup_nonce: renewal }).expect(200);
      expect((await domainOf(domain.id)).marketplace_entitlement_id).toBe('ent-renewed');
    });

    it('{cloud}/link/ wants the nonce’s own marketplace; unknown marketplaces are 404', async () => {
      const domain = await createDomain(t);
      const { h } = await adminOf(domain.id);
      const nonce = await nonceFor();
      expectError(
        await t.http.post(`${M}/vendor_b/link/`).set(h).send({ marketplace_signup_nonce: nonce }),
        400,
        'marketplace.CLOUD_MISMATCH',
      );
      expect(await usable(nonce)).toBe(true);
      expectError(
        await t.http.post(`${M}/vendor_z/link/`).set(h).send({ marketplace_signup_nonce: nonce }),
        404,
        'marketplace.UNKNOWN_CLOUD',
      );
      const res = await t.http
        .post(`${M}/vendor_a/link/`)
        .set(h)
        .send({ marketplace_signup_nonce: nonce })
        .expect(200);
      expect(res.body.cloud).toBe('vendor_a');
    });

    it('two racing links of one nonce: exactly one wins', async () => {
      const [d1, d2] = await Promise.all([createDomain(t), createDomain(t)]);
      const [x, y] = await Promise.all([adminOf(d1.id), adminOf(d2.id)]);
      const nonce = await nonceFor();
      const results = await Promise.all(
        [x.h, y.h].map((h) => t.http.post(`${M}/link/`).set(h).send({ marketplace_signup_nonce: nonce })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
      const linked = [await domainOf(d1.id), await domainOf(d2.id)].filter(
        (d) => d.marketplace_customer_id !== null,
      );
      expect(linked).toHaveLength(1);
    });

    it('a nonce registration consumed (MarketplaceService.consume) cannot be linked', async () => {
      const registered = await createDomain(t);
      const nonce = await nonceFor(a, 'vendor_a', { sub: 'cust-reg' });
      await t.ds.transaction((em) => t.get(MarketplaceService).consume(em, nonce, registered.id));
      expect((await domainOf(registered.id)).marketplace_customer_id).toBe('cust-reg');
      await expect(t.get(MarketplaceService).assertUsable(nonce)).rejects.toMatchObject({ status: 400 });
      const { h } = await adminOf((await createDomain(t)).id);
      expectError(
        await t.http.post(`${M}/link/`).set(h).send({ marketplace_signup_nonce: nonce }),
        400,
        'marketplace.NONCE_INVALID',
      );
      // a consume that fails rolls back with the caller's transaction
      await expect(
        t.ds.transaction((em) => t.get(MarketplaceService).consume(em, nonce, registered.id)),
      ).rejects.toMatchObject({ status: 400 });
    });
  });

  describe('sign-in with marketplace_signup_nonce', () => {
    const signIn = (user: UserEntity, nonce?: string) =>
      t.http
        .post(LOGIN)
        .send({ email: user.email, password: DEFAULT_PASSWORD, marketplace_signup_nonce: nonce });

    it('simple login of the administrator of one domain records the ids with the sign-in', async () => {
      const domain = await createDomain(t);
      const { user } = await adminOf(domain.id);
      const nonce = await nonceFor(a, 'vendor_a', { sub: 'cust-login', entitlement_id: 'ent-login' });
      const res = await signIn(user, nonce).expect(201);
      expect(res.body.token).toEqual(expect.any(String));
      expect(await domainOf(domain.id)).toMatchObject({
        marketplace_customer_id: 'cust-login',
        marketplace_entitlement_id: 'ent-login',
      });
      expect(await usable(nonce)).toBe(false);
    });

    it('an unusable nonce refuses the sign-in (400, no token issued); a wrong password still says 401 first', async () => {
      const domain = await createDomain(t);
      const { user } = await adminOf(domain.id);
      const tokens = () => t.ds.getRepository(TokenEntity).countBy({ user_id: user.id });
      const before = await tokens();
      expectError(
        await signIn(user, randomBytes(32).toString('base64url')),
        400,
        'marketplace.NONCE_INVALID',
      );
      expect(await tokens()).toBe(before);
      const nonce = await nonceFor();
      const wrong = await t.http
        .post(LOGIN)
        .send({ email: user.email, password: 'wrong-password-1', marketplace_signup_nonce: nonce });
      expect(wrong.status).toBe(401);
      expect(await usable(nonce)).toBe(true);
    });

    it('is left unconsumed when the user is no administrator, or has several domains to choose from', async () => {
      const domain = await createDomain(t);
      const member = await createUser(t, { domainId: domain.id });
      const nonce = await nonceFor();
      await signIn(member, nonce).expect(201);
      expect(await usable(nonce)).toBe(true);
      expect((await domainOf(domain.id)).marketplace_customer_id).toBeNull();
      const second = await createDomain(t);
      const multi = await createUser(t, { domainId: domain.id, isAdmin: true, alsoIn: [second.id] });
      const res = await signIn(multi, nonce).expect(201);
      expect(res.body.auth_system_domains).toHaveLength(2);
      expect(await usable(nonce)).toBe(true);
      expect((await domainOf(domain.id)).marketplace_customer_id).toBeNull();
    });

    it('with a second factor owed, multidomain/login consumes it for the chosen administered domain', async () => {
      const domain = await createDomain(t, { mfa_required: true, mfa_methods: ['MAIL_2SV'] });
      const { user } = await adminOf(domain.id);
      const nonce = await nonceFor(a, 'vendor_a', { sub: 'cust-mfa' });
      const first = await signIn(user, nonce).expect(201);
      expect(first.body.token).toBeNull();
      expect(await usable(nonce)).toBe(true);
      const temp = { 'Temp-Auth-Token': first.body.temp_token as string };
      const target = { email: user.email, system_domain_id: domain.id };
      await t.http.post(GENERATE).set(temp).send(target).expect(201);
      const code = /sign-in code is (\d{6})/.exec(await mailedText(t, user.email))![1];
      const res = await t.http
        .post(MULTI)
        .set(temp)
        .send({ ...target, otp: code, otp_type: 'MAIL_2SV', marketplace_signup_nonce: nonce })
        .expect(201);
      expect(res.body.token).toEqual(expect.any(String));
      expect((await domainOf(domain.id)).marketplace_customer_id).toBe('cust-mfa');
      expect(await usable(nonce)).toBe(false);
    });
  });
});

/** With every log line on, marketplace tokens and the nonces they become never reach the output. */
describe('marketplace secrets stay out of the logs', () => {
  let t: TestApp;
  let a: MarketplaceIssuer;
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);

  beforeAll(async () => {
    a = await new MarketplaceIssuer('logs').start();
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    t = await createTestApp({ LOG_LEVEL: 'trace', ...a.env('vendor_a') });
  });
  afterAll(async () => {
    process.stdout.write = write;
    await t.close();
    await a.stop();
  });

  it('signup, the form’s redirect, a refused token and the link log neither token nor nonce', async () => {
    const tokens = [await a.mint(), await a.mint(), await a.mint({ expiresIn: -60 })];
    const json = await t.http
      .post(`${M}/signup/`)
      .send({ [FIELD_A]: tokens[0] })
      .expect(200);
    const form = await t.http.post(`${M}/vendor_a/signup/`).field(FIELD_A, tokens[1]).expect(302);
    await t.http.post(`${M}/vendor_a/signup/`).field(FIELD_A, tokens[2]).expect(302);
    const nonces = [
      json.body.marketplace_signup_nonce as string,
      new URL(form.headers.location).searchParams.get('marketplace_signup_nonce')!,
    ];
    const domain = await createDomain(t);
    const admin = await createUser(t, { domainId: domain.id, isAdmin: true });
    const h = bearer((await tokenFor(t, admin, { domainId: domain.id })).token);
    await t.http.post(`${M}/link/`).set(h).send({ marketplace_signup_nonce: nonces[0] }).expect(200);
    await t.http
      .post(LOGIN)
      .send({ email: admin.email, password: DEFAULT_PASSWORD, marketplace_signup_nonce: nonces[1] })
      .expect(201);
    const output = lines.join('');
    expect(output).toContain('marketplace');
    for (const secret of [...tokens, ...nonces]) expect(output).not.toContain(secret);
    // nor the signature part alone
    for (const token of tokens) expect(output).not.toContain(token.split('.')[2]);
  });
});
