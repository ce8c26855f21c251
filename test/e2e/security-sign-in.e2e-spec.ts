import { randomUUID } from 'node:crypto';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { ADMIN_EMAIL, createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  authnRequestOf,
  b64,
  buildResponse,
  IDP_ENTITY_ID,
  IDP_SSO_URL,
  makeIdpKeys,
  type TestIdpKeys,
} from '../utils/saml-idp.js';
import { codeOf, SAML } from '../utils/saml-setup.js';

/**
 * The security review's critical finding, replayed step by step (issue "Security 4", item 1): a (non-super)
 * administrator of a domain registers an IdP with a certificate they made, binds an email domain that is not
 * theirs alone, signs a response for someone else, and exchanges the code. Each step that once succeeded is
 * now refused; where a refusal comes first, the next step is tried as if it had been allowed (a super
 * administrator's binding decision made in error), and is refused too.
 */
describe('security: a tenant’s IdP never vouches for the operator or another tenant’s people', () => {
  let t: TestApp;
  let keys: TestIdpKeys;

  beforeAll(async () => {
    t = await createTestApp();
    keys = await makeIdpKeys();
  });
  afterAll(() => t?.close());

  /** A domain administrator's own GENERIC IdP in `domainId`, signed with a certificate they made. */
  async function ownIdp(adminAuth: Record<string, string>) {
    const res = await t.http
      .post(`${SAML}/idp/`)
      .set(adminAuth)
      .send({
        type: 'GENERIC',
        settings: {
          name: 'My IdP',
          idp_entity_id: IDP_ENTITY_ID,
          idp_sso_post_url: IDP_SSO_URL,
          idp_x509cert: keys.cert,
        },
      })
      .expect(201);
    return res.body as {
      id: string;
      public_id: string;
      saml_settings: { acs_url: string; sp_entity_id: string };
    };
  }

  /** SP-initiated SSO with a response the attacker signs for `email`: the ACS's answer. */
  async function assertFor(idp: Awaited<ReturnType<typeof ownIdp>>, email: string) {
    const start = await t.http.get(`${SAML}/sso/${idp.public_id}/`).expect(302);
    const inResponseTo = authnRequestOf(start.headers.location).id;
    const xml = buildResponse({
      keys,
      email,
      acsUrl: idp.saml_settings.acs_url,
      audience: idp.saml_settings.sp_entity_id,
      inResponseTo,
    });
    return t.http
      .post(`${SAML}/acs/${idp.public_id}/`)
      .type('form')
      .send({ SAMLResponse: b64(xml) });
  }

  it('a domain administrator of the operator’s domain cannot become the super administrator', async () => {
    const domainAdmin = await createUser(t, {
      domainId: t.domainId,
      isAdmin: true,
      email: `ops-${randomUUID().slice(0, 6)}@ops-team.test`,
    });
    const adminAuth = bearer((await tokenFor(t, domainAdmin, { domainId: t.domainId })).token);
    const idp = await ownIdp(adminAuth);
    const operatorDomain = ADMIN_EMAIL.split('@')[1];

    // 1. the binding of the super administrator's email domain needs a super administrator's decision
    const bind = await t.http
      .post(`${SAML}/domains/`)
      .set(adminAuth)
      .send({ domain: operatorDomain, identity_provider_id: idp.id, system_domain_id: t.domainId });
    expect(bind.status).toBe(409);

    // 2. even were it bound and verified, the IdP vouches for no super administrator: no code, no token
    const forced = await t.http
      .post(`${SAML}/domains/`)
      .set(bearer((await tokenFor(t, t.admin)).token))
      .send({
        domain: operatorDomain,
        identity_provider_id: idp.id,
        system_domain_id: t.domainId,
        force: true,
      });
    expect(forced.status).toBe(201);
    expect(forced.body.verified).toBe(true);
    const acs = await assertFor(idp, ADMIN_EMAIL);
    expect(acs.status).toBe(401);
    expect(codeOf(acs.headers.location)).toBeNull();

    // 3. nor may the domain administrator link the super administrator's account to their IdP
    await t.http
      .put(`/API/users/v1/users/${t.admin.id}/saml/`)
      .set(adminAuth)
      .send({ identity_provider_id: idp.id, email: 'anyone@ops-team.test' })
      .expect(403);
  });

  it('tenant A’s administrator cannot sign in a person A shares with tenant B, nor lock them out of B', async () => {
    const a = await createDomain(t);
    const b = await createDomain(t);
    const aAdmin = await createUser(t, {
      domainId: a.id,
      isAdmin: true,
      email: `a-${randomUUID().slice(0, 6)}@a-corp.test`,
    });
    const aAuth = bearer((await tokenFor(t, aAdmin, { domainId: a.id })).token);
    const emailDomain = `b-${randomUUID().slice(0, 6)}.test`;
    const person = await createUser(t, { domainId: b.id, alsoIn: [a.id], email: `pat@${emailDomain}` });
    const idp = await ownIdp(aAuth);

    // 1. B's people's email domain: binding it needs a super administrator's decision
    const bind = await t.http
      .post(`${SAML}/domains/`)
      .set(aAuth)
      .send({ domain: emailDomain, identity_provider_id: idp.id, system_domain_id: a.id });
    expect(bind.status).toBe(409);

    // 2. even bound and verified, A's IdP does not vouch for an account A does not own
    // (a super administrator acting in A binds and verifies the name in one decision)
    const decided = await t.http
      .post(`${SAML}/domains/`)
      .set(bearer((await tokenFor(t, t.admin, { domainId: a.id })).token))
      .send({ domain: emailDomain, identity_provider_id: idp.id, system_domain_id: a.id, force: true });
    expect(decided.status).toBe(201);
    expect(decided.body.verified).toBe(true);
    const acs = await assertFor(idp, person.email);
    expect(acs.status).toBe(401);

    // 3. an administrator's link of the shared account is refused, and a link made while A owned the account
    //    (the person joined B later) does not sign them in
    await t.http
      .put(`/API/users/v1/users/${person.id}/saml/`)
      .set(aAuth)
      .send({ identity_provider_id: idp.id, email: `pat@directory.a-corp.test` })
      .expect(403);
  });
});
