import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { bearer } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { authnRequestOf } from '../utils/saml-idp.js';
import { codeOf, SAML, samlWorld, type SamlWorld } from '../utils/saml-setup.js';

/** SAML single sign-on end to end against the test IdP: SP- and IdP-initiated, the code, the Token. */
describe('SAML single sign-on', () => {
  let t: TestApp;
  let w: SamlWorld;

  beforeAll(async () => {
    t = await createTestApp();
    w = await samlWorld(t);
  });
  afterAll(() => t?.close());

  it('SP-initiated: sso/ redirects to the IdP with an AuthnRequest for this SP', async () => {
    const res = await t.http.get(`${SAML}/sso/${w.idp.public_id}/`).expect(302);
    const req = authnRequestOf(res.headers.location);
    expect(req.url.origin + req.url.pathname).toBe('https://idp.acme.test/sso');
    expect(req.xml).toContain(`AssertionConsumerServiceURL="${w.idp.saml_settings.acs_url}"`);
    expect(req.xml).toContain(w.idp.saml_settings.sp_entity_id);
    expect(req.id).toMatch(/^_/);
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('the response signs the member in: 302 to the web app with a code, exchanged once for the Token', async () => {
    const id = await w.startRequest();
    const r = await w.post(w.response({ inResponseTo: id }));
    expect(r.status).toBe(302);
    expect(r.location).toMatch(/^https:\/\/app\.acme\.test\/?\?saml_code=/);
    expect(r.location).not.toMatch(/token=|eyJ/);
    const code = codeOf(r.location)!;
    const token = await t.http.post(`${SAML}/token/`).send({ code }).expect(201);
    expect(token.body.user_id).toBe(w.member.id);
    expect(token.body.system_domain_id).toBe(w.domainId);
    // a tenant’s IdP is never a second factor of the service (SignInAuthority)
    expect(token.body.is_mfa_authenticated).toBe(false);
    expect(token.body.auth_system_domains).toHaveLength(1);
    await t.http.get('/API/auth/v1/auth/token/').set(bearer(token.body.token)).expect(200);
    // single use
    await t.http.post(`${SAML}/token/`).send({ code }).expect(401);
  });

  it('a guessed or malformed code is refused, and nothing else', async () => {
    for (const code of ['x', 'a'.repeat(43), "' OR 1=1 --"]) {
      const res = await t.http.post(`${SAML}/token/`).send({ code });
      expect(res.status).toBe(401);
    }
    await t.http.post(`${SAML}/token/`).send({}).expect(400);
  });

  it('login/ routes an email to its IdP, 404 for a domain without one; multidomain/login lists it', async () => {
    const res = await t.http.post(`${SAML}/login/`).send({ email: 'someone@ACME.test' }).expect(200);
    expect(res.body.url).toBe(`${t.config.http.publicBaseUrl}${SAML}/sso/${w.idp.public_id}/`);
    await t.http.post(`${SAML}/login/`).send({ email: 'someone@other.test' }).expect(404);
    await t.http.post(`${SAML}/login/`).send({ email: 'not-an-email' }).expect(400);
    const multi = await t.http.post(`${SAML}/multidomain/login/`).send({ email: 'x@acme.test' }).expect(200);
    expect(multi.body).toEqual(
      expect.objectContaining({
        objects: [expect.objectContaining({ system_domain_id: w.domainId, url: res.body.url })],
        page: 1,
        pages: 1,
        per_page: 1,
        total: 1,
        next_url: null,
        prev_url: null,
      }),
    );
    const none = await t.http.post(`${SAML}/multidomain/login/`).send({ email: 'x@other.test' }).expect(200);
    expect(none.body).toEqual(expect.objectContaining({ objects: [], total: 0, page: 1, pages: 1 }));
  });

  it('metadata/ serves the SP metadata; logout/ answers null without SLO; slo/ returns to the app', async () => {
    const md = await t.http.get(`${SAML}/metadata/${w.idp.public_id}/`).expect(200);
    expect(md.headers['content-type']).toMatch(/application\/xml/);
    expect(md.text).toContain(`entityID="${w.idp.saml_settings.sp_entity_id}"`);
    expect(md.text).toContain(w.idp.saml_settings.acs_url);
    expect(md.text).not.toMatch(/PRIVATE KEY/);
    const out = await t.http.post(`${SAML}/logout/${w.idp.public_id}/`).expect(200);
    expect(out.body).toEqual({ url: null });
    const slo = await t.http.get(`${SAML}/slo/${w.idp.public_id}/`).expect(302);
    expect(slo.headers.location).toMatch(/^https:\/\/app\.acme\.test/);
    await t.http.get(`${SAML}/metadata/${w.domainId}/${w.idp.id}/`).expect(200);
    await t.http.get(`${SAML}/metadata/00000000-0000-4000-8000-000000000000/`).expect(404);
  });

  it('the deprecated slo/{system_domain_id}/{identity_provider_id}/ (GET) answers as slo/{public_id}/', async () => {
    const current = await t.http.get(`${SAML}/slo/${w.idp.public_id}/`).expect(302);
    const deprecated = await t.http.get(`${SAML}/slo/${w.domainId}/${w.idp.id}`).expect(302);
    expect(deprecated.headers.location).toBe(current.headers.location);
    expect(deprecated.headers['cache-control']).toBe(current.headers['cache-control']);
    // the pair must name the IdP of that domain: swapped, another domain's, unknown or malformed ids are a 404
    await t.http.get(`${SAML}/slo/${w.idp.id}/${w.domainId}/`).expect(404);
    await t.http.get(`${SAML}/slo/${t.domainId}/${w.idp.id}/`).expect(404);
    await t.http.get(`${SAML}/slo/${w.domainId}/00000000-0000-4000-8000-000000000000/`).expect(404);
    await t.http.get(`${SAML}/slo/${w.domainId}/'%20OR%201=1/`).expect(404);
  });

  it('the deprecated {system_domain_id}/{identity_provider_id} ACS and SSO forms work too', async () => {
    const res = await t.http.get(`${SAML}/sso/${w.domainId}/${w.idp.id}/`).expect(302);
    const id = authnRequestOf(res.headers.location).id;
    const acs = await t.http
      .post(`${SAML}/acs/${w.domainId}/${w.idp.id}/`)
      .type('form')
      .send({ SAMLResponse: w.response({ inResponseTo: id }) })
      .expect(302);
    expect(codeOf(acs.headers.location)).toBeTruthy();
    await t.http.get(`${SAML}/sso/${w.idp.id}/${w.domainId}/`).expect(404);
  });

  it('just-in-time provisioning creates a user with the assertion’s names only when allowed', async () => {
    const email = 'newcomer@acme.test';
    let id = await w.startRequest();
    let r = await w.post(w.response({ inResponseTo: id, email }));
    expect(r.status).toBe(401);
    await t.http
      .patch(`${SAML}/idp/${w.idp.id}/`)
      .set(w.adminAuth)
      .send({ settings: { jit_provisioning: true } })
      .expect(200);
    id = await w.startRequest();
    r = await w.post(
      w.response({ inResponseTo: id, email, attributes: { givenName: 'Nora', sn: 'Newcomer' } }),
    );
    expect(r.status).toBe(302);
    const token = await t.http
      .post(`${SAML}/token/`)
      .send({ code: codeOf(r.location) })
      .expect(201);
    const me = await t.http.get('/API/users/v1/users/current/').set(bearer(token.body.token)).expect(200);
    expect(me.body).toEqual(expect.objectContaining({ email, first_name: 'Nora', last_name: 'Newcomer' }));
  });

  it('just-in-time provisioning respects the domain’s seat limits', async () => {
    await t.http
      .patch(`${SAML}/idp/${w.idp.id}/`)
      .set(w.adminAuth)
      .send({ settings: { jit_provisioning: true } })
      .expect(200);
    const [{ n }] = await t.ds.query(
      "SELECT count(*)::int AS n FROM user_system_domains m JOIN users u ON u.id = m.user_id WHERE m.system_domain_id = $1 AND u.status = 'ACTIVE' AND u.type = 'STANDARD'",
      [w.domainId],
    );
    await t.ds.query('UPDATE system_domains SET billing_limits = $2 WHERE id = $1', [
      w.domainId,
      JSON.stringify({ standard_users: n }),
    ]);
    try {
      const r = await w.post(
        w.response({ inResponseTo: await w.startRequest(), email: 'one-too-many@acme.test' }),
      );
      expect(r.status).toBe(401);
      // an existing member still signs in
      expect((await w.post(w.response({ inResponseTo: await w.startRequest() }))).status).toBe(302);
    } finally {
      await t.ds.query('UPDATE system_domains SET billing_limits = NULL WHERE id = $1', [w.domainId]);
    }
  });

  it('verbose_logging logs the decoded assertion of that IdP only, never key material', async () => {
    const lines: string[] = [];
    const logger = Logger.prototype as unknown as { log: (...a: unknown[]) => void };
    const spy = jest.spyOn(logger, 'log').mockImplementation((...a: unknown[]) => {
      lines.push(JSON.stringify(a));
    });
    try {
      await w.post(w.response({ inResponseTo: await w.startRequest() }));
      expect(lines.some((l) => l.includes('SAML assertion'))).toBe(false);
      await t.http
        .patch(`${SAML}/idp/${w.idp.id}/`)
        .set(w.adminAuth)
        .send({ verbose_logging: true })
        .expect(200);
      await w.post(w.response({ inResponseTo: await w.startRequest() }));
      const logged = lines.filter((l) => l.includes('SAML assertion'));
      expect(logged).toHaveLength(1);
      expect(logged[0]).toContain(w.member.email);
      expect(logged[0]).not.toMatch(/PRIVATE KEY/);
    } finally {
      spy.mockRestore();
      await t.http
        .patch(`${SAML}/idp/${w.idp.id}/`)
        .set(w.adminAuth)
        .send({ verbose_logging: false })
        .expect(200);
    }
  });

  it('an HTML page for a browser when the response is refused', async () => {
    const res = await t.http
      .post(`${SAML}/acs/${w.idp.public_id}/`)
      .set('Accept', 'text/html')
      .type('form')
      .send({ SAMLResponse: w.response({ inResponseTo: 'nope' }) })
      .expect(401);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('Single sign-on failed');
    await t.http.post(`${SAML}/acs/${w.idp.public_id}/`).type('form').send({}).expect(400);
  });
});
