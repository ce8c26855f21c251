import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { startDnsServer, type TestDnsServer } from '../utils/dns-server.js';
import { IDP_ENTITY_ID, IDP_SSO_URL, makeIdpKeys, type TestIdpKeys } from '../utils/saml-idp.js';
import { codeOf, SAML, samlWorld, type SamlWorld } from '../utils/saml-setup.js';

const DNS_TIMEOUT_MS = 800;
const TOKEN = /^portcullis-domain-verification=[A-Za-z0-9_-]{43}$/;

/**
 * Issue: email domains were claimed first come, first served. A tenant bound gmail and another company's
 * domain without proof, and SSO discovery then sent that company's people to the squatter's IdP, which
 * created accounts for them. Now a binding routes and provisions no one until its DNS TXT record is found
 * (through the resolvers of DNS_SERVERS: a DNS server on loopback here) or a super administrator decides.
 */
describe('email domain verification', () => {
  let dns: TestDnsServer;
  let t: TestApp;
  let keys: TestIdpKeys;
  let squatter: SamlWorld;
  let superAdmin: Record<string, string>;

  /** A tenant of its own: an administrator and a GENERIC IdP from the test IdP. */
  const tenant = async (adminEmail: string, settings: Record<string, unknown> = {}) => {
    const d = await createDomain(t);
    const admin = await createUser(t, { domainId: d.id, isAdmin: true, email: adminEmail });
    const auth = bearer((await tokenFor(t, admin, { domainId: d.id })).token);
    const idp = (
      await t.http
        .post(`${SAML}/idp/`)
        .set(auth)
        .send({
          type: 'GENERIC',
          settings: {
            name: 'IdP',
            idp_entity_id: IDP_ENTITY_ID,
            idp_sso_post_url: IDP_SSO_URL,
            idp_x509cert: keys.cert,
            ...settings,
          },
        })
        .expect(201)
    ).body as { id: string; public_id: string };
    return { domainId: d.id, admin, auth, idp };
  };
  const bind = (auth: Record<string, string>, domain: string, idpId: string, force?: boolean) =>
    t.http
      .post(`${SAML}/domains/`)
      .set(auth)
      .send({ domain, identity_provider_id: idpId, ...(force === undefined ? {} : { force }) });
  const verify = (auth: Record<string, string>, domain: string, body: Record<string, unknown> = {}) =>
    t.http.post(`${SAML}/domains/${domain}/verify/`).set(auth).send(body);
  const routedTo = async (email: string) => {
    const login = await t.http.post(`${SAML}/login/`).send({ email });
    const multi = await t.http.post(`${SAML}/multidomain/login/`).send({ email }).expect(200);
    return {
      login: login.status === 200 ? (login.body.url as string) : login.status,
      multi: multi.body.objects,
    };
  };
  const userExists = (email: string) => t.ds.getRepository(UserEntity).existsBy({ email });
  /** An assertion of `email` by the squatter's IdP (JIT on), as its ACS receives it. */
  const assertBySquatter = async (email: string) =>
    squatter.post(squatter.response({ inResponseTo: await squatter.startRequest(), email }));

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp({ DNS_SERVERS: dns.address, DNS_TIMEOUT_MS: String(DNS_TIMEOUT_MS) });
    keys = await makeIdpKeys();
    superAdmin = bearer((await tokenFor(t, t.admin)).token);
    // the squatter: a tenant with its own (verified) domain and an IdP that provisions just in time
    squatter = await samlWorld(t, {
      keys,
      emailDomain: 'squatter.test',
      settings: { jit_provisioning: true },
    });
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('the attack: a squatter’s claims route no one and provision no one; the owner is not blocked', async () => {
    for (const name of ['gmail.test', 'victim-co.test']) {
      const res = await bind(squatter.adminAuth, name, squatter.idp.id).expect(201);
      expect(res.body).toEqual({
        domain: name,
        identity_provider_id: squatter.idp.id,
        directory_id: null,
        oidc_provider_id: null,
        system_domain_id: squatter.domainId,
        verified: false,
        verified_at: null,
        verification: {
          type: 'TXT',
          name: `_portcullis-challenge.${name}`,
          value: expect.stringMatching(TOKEN),
        },
      });
    }
    // SSO discovery sends nobody to the squatter's IdP
    for (const email of ['alice@gmail.test', 'carol@victim-co.test'])
      expect(await routedTo(email)).toEqual({ login: 404, multi: [] });
    // an assertion naming someone of those domains signs no one in and creates no account
    for (const email of ['alice@gmail.test', 'carol@victim-co.test']) {
      const r = await assertBySquatter(email);
      expect({ email, status: r.status, code: codeOf(r.location) }).toEqual({
        email,
        status: 401,
        code: null,
      });
      expect(await userExists(email)).toBe(false);
    }
    // the squatter's own, verified domain still works (JIT included)
    expect((await assertBySquatter('dave@squatter.test')).status).toBe(302);

    // the company arrives: its claim is not blocked by the squatter's, and its proof wins
    const victim = await tenant('admin@victim-co.test');
    const claim = await bind(victim.auth, 'victim-co.test', victim.idp.id).expect(201);
    expect(claim.body.verified).toBe(false);
    const record = claim.body.verification as { name: string; value: string };
    expect(record.value).not.toBe(
      (await bind(squatter.adminAuth, 'victim-co.test', squatter.idp.id).expect(201)).body.verification.value,
    );
    // not published yet, or published wrong: refused, still unverified
    let res = await verify(victim.auth, 'victim-co.test').expect(409);
    expect(res.headers['x-error-code']).toBe('identity_providers.NOT_VERIFIED');
    expect(res.body.errors[0]).toContain('_portcullis-challenge.victim-co.test');
    dns.txt.set(record.name, [
      'v=spf1 -all',
      'portcullis-domain-verification=guess',
      record.value.slice(0, -1),
    ]);
    await verify(victim.auth, 'victim-co.test').expect(409);
    expect((await routedTo('carol@victim-co.test')).login).toBe(404);
    // published: verified, and it routes to the company's IdP
    dns.txt.set(record.name, ['v=spf1 -all', record.value]);
    res = await verify(victim.auth, 'victim-co.test').expect(200);
    expect(res.body).toEqual(
      expect.objectContaining({ domain: 'victim-co.test', verified: true, verification: null }),
    );
    expect(res.body.verified_at).toEqual(expect.any(String));
    const routed = await routedTo('carol@victim-co.test');
    expect(routed.login).toBe(`${t.config.http.publicBaseUrl}${SAML}/sso/${victim.idp.public_id}/`);
    expect(routed.multi).toEqual([expect.objectContaining({ system_domain_id: victim.domainId })]);
    // verifying again changes nothing; the squatter cannot verify the name now, even with the record
    await verify(victim.auth, 'victim-co.test').expect(200);
    res = await verify(squatter.adminAuth, 'victim-co.test').expect(409);
    expect(res.headers['x-error-code']).toBe('identity_providers.DOMAIN_FOREIGN');
    expect((await assertBySquatter('erin@victim-co.test')).status).toBe(401);
    expect(await userExists('erin@victim-co.test')).toBe(false);
    // the IdP shows its bindings with their state; `domains` keeps its published shape
    const got = await t.http.get(`${SAML}/idp/${victim.idp.id}/`).set(victim.auth).expect(200);
    expect(got.body.domains).toEqual(['victim-co.test']);
    expect(got.body.domain_bindings).toEqual([
      expect.objectContaining({ domain: 'victim-co.test', verified: true }),
    ]);
    const own = await t.http.get(`${SAML}/idp/${squatter.idp.id}/`).set(squatter.adminAuth).expect(200);
    expect(own.body.domain_bindings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ domain: 'gmail.test', verified: false, verification: expect.any(Object) }),
        expect.objectContaining({ domain: 'squatter.test', verified: true, verification: null }),
      ]),
    );
  });

  it('the resolvers failing or not answering is a 503 within DNS_TIMEOUT_MS, never a hang or a 500', async () => {
    const a = await tenant('admin@dns-trouble.test');
    for (const name of ['silent.test', 'servfail.test']) {
      const claim = await bind(a.auth, name, a.idp.id).expect(201);
      (name === 'silent.test' ? dns.silent : dns.failing).add(claim.body.verification.name);
      const started = Date.now();
      const res = await verify(a.auth, name).expect(503);
      expect(Date.now() - started).toBeLessThan(DNS_TIMEOUT_MS + 1_500);
      expect(res.headers['x-error-code']).toBe('identity_providers.DNS_UNAVAILABLE');
      expect(res.body.errors[0]).toMatch(/DNS lookup did not complete/);
    }
  });

  it('a name a super administrator or people of other domains use takes the super administrator’s decision', async () => {
    // the operator's own domain: its administrator is a member beside the super administrator (the old hole)
    const operatorAdmin = await createUser(t, {
      domainId: t.domainId,
      isAdmin: true,
      email: 'ops@operator.test',
    });
    const opsAuth = bearer((await tokenFor(t, operatorAdmin, { domainId: t.domainId })).token);
    const opsIdp = (
      await t.http
        .post(`${SAML}/idp/`)
        .set(opsAuth)
        .send({
          type: 'GENERIC',
          settings: {
            name: 'Ops',
            idp_entity_id: IDP_ENTITY_ID,
            idp_sso_post_url: IDP_SSO_URL,
            idp_x509cert: keys.cert,
          },
        })
        .expect(201)
    ).body as { id: string };
    const superDomain = t.admin.email.split('@')[1];
    let res = await bind(opsAuth, superDomain, opsIdp.id).expect(409);
    expect(res.headers['x-error-code']).toBe('identity_providers.DOMAIN_CONTESTED');
    // another tenant's administrator neither
    const other = await tenant('admin@elsewhere.test');
    await bind(other.auth, superDomain, other.idp.id).expect(409);
    // someone who belongs to this tenant and to another one (the old check counted only non-members)
    const shared = await tenant('admin@shared-people.test');
    await createUser(t, { domainId: shared.domainId, email: 'pat@shared.test', alsoIn: [squatter.domainId] });
    res = await bind(shared.auth, 'shared.test', shared.idp.id).expect(409);
    expect(res.headers['x-error-code']).toBe('identity_providers.DOMAIN_CONTESTED');
    // the super administrator decides: bound and verified at once, in the super administrator's domain
    res = await bind(superAdmin, superDomain, opsIdp.id, true).expect(201);
    expect(res.body).toEqual(
      expect.objectContaining({ domain: superDomain, verified: true, verification: null }),
    );
    expect((await routedTo(`someone@${superDomain}`)).multi).toEqual([
      expect.objectContaining({ system_domain_id: t.domainId }),
    ]);
  });
});
