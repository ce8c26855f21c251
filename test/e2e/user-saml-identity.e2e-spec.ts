import { randomUUID } from 'node:crypto';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { codeOf, SAML, samlWorld, type SamlWorld } from '../utils/saml-setup.js';

const USERS = '/API/users/v1/users';

/** PUT/DELETE /v1/users/{id}/saml/: the identity a domain's IdP signs a user in with, used by SAML sign-in. */
describe('a user’s single-sign-on identity', () => {
  let t: TestApp;
  let w: SamlWorld;
  const alias = () => `sso-${randomUUID().slice(0, 8)}@corp-directory.test`;
  /** Signs in through the IdP asserting `email`; the Token's user id, or the ACS status when refused. */
  const ssoAs = async (email: string): Promise<string | number> => {
    const id = await w.startRequest();
    const r = await w.post(w.response({ inResponseTo: id, email }));
    const code = codeOf(r.location);
    if (r.status !== 302 || !code) return r.status;
    const token = await t.http.post(`${SAML}/token/`).send({ code });
    return token.status === 201 ? (token.body.user_id as string) : token.status;
  };

  beforeAll(async () => {
    t = await createTestApp();
    w = await samlWorld(t);
  });
  afterAll(() => t.close());

  it('links a user to the domain’s IdP: an assertion of that email signs that user in, until it is removed', async () => {
    const user = await createUser(t, {
      domainId: w.domainId,
      email: `u-${randomUUID().slice(0, 6)}@elsewhere.test`,
    });
    const email = alias();
    expect(await ssoAs(email)).not.toBe(user.id); // corp-directory.test is bound to no IdP: refused
    const res = await t.http
      .put(`${USERS}/${user.id}/saml/`)
      .set(w.adminAuth)
      .send({ email: email.toUpperCase(), identity_provider_id: w.idp.id })
      .expect(200);
    expect(res.body).toMatchObject({ id: user.id, email: user.email, system_domain_id: w.domainId });
    expect(await ssoAs(email)).toBe(user.id);
    // the member's own email still signs the member in (the binding rule is unchanged)
    expect(await ssoAs(w.member.email)).toBe(w.member.id);

    // one identity names one user per IdP
    const other = await createUser(t, { domainId: w.domainId });
    await t.http
      .put(`${USERS}/${other.id}/saml/`)
      .set(w.adminAuth)
      .send({ email, identity_provider_id: w.idp.id })
      .expect(409);

    await t.http.delete(`${USERS}/${user.id}/saml/`).set(w.adminAuth).expect(204);
    await t.http.delete(`${USERS}/${user.id}/saml/`).set(w.adminAuth).expect(404);
    expect(await ssoAs(email)).not.toBe(user.id);
  });

  it('a linked user removed from the domain is not signed in', async () => {
    const user = await createUser(t, { domainId: w.domainId });
    const email = alias();
    await t.http
      .put(`${USERS}/${user.id}/saml/`)
      .set(w.adminAuth)
      .send({ email, identity_provider_id: w.idp.id })
      .expect(200);
    await t.http.delete(`${USERS}/${user.id}/`).set(w.adminAuth).expect(204);
    expect(await ssoAs(email)).not.toBe(user.id);
  });

  it('is an administrator’s act, for the caller’s own domain, its own IdPs, and not on a shared account', async () => {
    const user = await createUser(t, { domainId: w.domainId });
    const writer = await createUser(t, {
      domainId: w.domainId,
      roles: ['can_write_users', 'can_read_users'],
    });
    const body = { email: alias(), identity_provider_id: w.idp.id };
    await t.http
      .put(`${USERS}/${user.id}/saml/`)
      .set(bearer((await tokenFor(t, writer)).token))
      .send(body)
      .expect(403);
    await t.http.put(`${USERS}/${user.id}/saml/`).send(body).expect(401);

    // another domain's administrator: neither this domain's user nor its IdP
    const other = await createDomain(t);
    const otherAdmin = await createUser(t, { domainId: other.id, isAdmin: true });
    const oh = bearer((await tokenFor(t, otherAdmin)).token);
    await t.http.put(`${USERS}/${user.id}/saml/`).set(oh).send(body).expect(404);
    const ownUser = await createUser(t, { domainId: other.id });
    const idpRes = await t.http.put(`${USERS}/${ownUser.id}/saml/`).set(oh).send(body).expect(404);
    expect(JSON.stringify(idpRes.body)).toContain('Identity provider');
    await t.http.delete(`${USERS}/${user.id}/saml/`).set(oh).expect(404);

    // an account shared with another domain: only a super administrator
    const shared = await createUser(t, { domainId: w.domainId, alsoIn: [other.id] });
    await t.http.put(`${USERS}/${shared.id}/saml/`).set(w.adminAuth).send(body).expect(403);

    // bad input
    await t.http.put(`${USERS}/${user.id}/saml/`).set(w.adminAuth).send({ email: 'x' }).expect(400);
    await t.http.put(`${USERS}/not-a-uuid/saml/`).set(w.adminAuth).send(body).expect(404); // the ACL: alike
  });
});
