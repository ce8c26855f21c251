import { randomUUID } from 'node:crypto';
import { AuditEventEntity } from '../../src/base/model/audit-event.entity.js';
import { GroupMemberEntity } from '../../src/base/model/group-member.entity.js';
import { GroupEntity } from '../../src/base/model/group.entity.js';
import { UserSamlIdentityEntity } from '../../src/base/model/user-saml-identity.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { expectFactorEnrolment, expectPasswordChange, STRONG } from '../utils/account-change-cells.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedSecret } from '../utils/mail.js';
import { authorizationRequest, createOAuthApp, OAUTH, pkce } from '../utils/oauth.js';
import { codeOf, SAML, samlWorld, type SamlWorld } from '../utils/saml-setup.js';
import { SoftAuthenticator } from '../utils/soft-authenticator.js';

/**
 * The sign-in authority (src/sign-in/login/sign-in-authority.ts, docs/security.md): every cell of authenticator ×
 * account × action, over HTTP. A tenant's IdP (the SAML IdP of domain D, whose administrator controls it and
 * can sign any assertion) vouches only for accounts D owns, or through a link the person made themselves;
 * its sessions never count as a second factor, carry no super administrator's power, and change no account
 * that reaches beyond D. A passkey (issue 42, src/sign-in/passkeys/) is the service's own authenticator, bound
 * to one account: like the password it signs in any active account, and a user-verified passkey sign-in is
 * second-factor authenticated, with the account's own power, so account changes go through; it never vouches
 * for an account other than its own.
 */
type Authn =
  | 'password'
  | 'passkey'
  | 'email link'
  | 'tenant IdP, unlinked'
  | 'tenant IdP, linked by the person'
  | 'tenant IdP, linked by an administrator';
type Account =
  | 'owned by the IdP’s domain'
  | 'shared with another domain'
  | 'super administrator'
  | 'deactivated'
  | 'member of another tenant only';
type Verdict = 'ok' | 'refused';

const AUTHNS: Authn[] = [
  'password',
  'passkey',
  'email link',
  'tenant IdP, unlinked',
  'tenant IdP, linked by the person',
  'tenant IdP, linked by an administrator',
];
const ACCOUNTS: Account[] = [
  'owned by the IdP’s domain',
  'shared with another domain',
  'super administrator',
  'deactivated',
  'member of another tenant only',
];

/** Sign-in verdicts: the service vouches for any active account; a tenant for its own, or by the person's link. */
const SIGN_IN: Record<Authn, Record<Account, Verdict>> = {
  password: row('ok', 'ok', 'ok', 'refused', 'ok'),
  passkey: row('ok', 'ok', 'ok', 'refused', 'ok'),
  'email link': row('ok', 'ok', 'ok', 'refused', 'ok'),
  'tenant IdP, unlinked': row('ok', 'refused', 'refused', 'refused', 'refused'),
  'tenant IdP, linked by the person': row('ok', 'ok', 'ok', 'refused', 'refused'),
  'tenant IdP, linked by an administrator': row('ok', 'refused', 'refused', 'refused', 'refused'),
};
/** Account changes after a successful sign-in: the service's own sign-in may; a tenant's only on what it owns. */
const CHANGE = (a: Authn, acc: Account): Verdict =>
  !a.startsWith('tenant') || acc === 'owned by the IdP’s domain' ? 'ok' : 'refused';

const WEBAUTHN_USERS = '/API/users/v1/users/current/webauthn';
const WEBAUTHN_AUTH = '/API/auth/v1/auth/webauthn';

function row(...v: Verdict[]): Record<Account, Verdict> {
  return Object.fromEntries(ACCOUNTS.map((a, i) => [a, v[i]])) as Record<Account, Verdict>;
}

describe('the sign-in authority: authenticator × account × action', () => {
  let t: TestApp;
  let w: SamlWorld;
  let other: string;

  beforeAll(async () => {
    t = await createTestApp();
    w = await samlWorld(t);
    other = (await createDomain(t)).id;
  });
  afterAll(() => t?.close());

  /**
   * A fresh account of the kind, its email at the IdP's verified email domain (so routing reaches it), with
   * `can_write_users` in each of its domains (the role a person needs to change their own password here), so
   * that what decides a change is the authority, not a missing role.
   */
  async function account(kind: Account): Promise<UserEntity> {
    const user = await accountOf(kind);
    for (const domainId of [w.domainId, other]) {
      const group = await t.ds.getRepository(GroupEntity).save({
        system_domain_id: domainId,
        name: `g-${randomUUID().slice(0, 8)}`,
        roles: ['can_write_users'],
      });
      await t.ds.getRepository(GroupMemberEntity).insert({ group_id: group.id, user_id: user.id });
    }
    return user;
  }

  async function accountOf(kind: Account): Promise<UserEntity> {
    const email = `p-${randomUUID().slice(0, 8)}@${w.emailDomain}`;
    switch (kind) {
      case 'owned by the IdP’s domain':
        return createUser(t, { domainId: w.domainId, email });
      case 'shared with another domain':
        return createUser(t, { domainId: other, alsoIn: [w.domainId], email });
      case 'super administrator':
        return createUser(t, { domainId: w.domainId, isSuperAdmin: true, email });
      case 'deactivated':
        return createUser(t, { domainId: w.domainId, status: 'INACTIVE', email });
      case 'member of another tenant only':
        return createUser(t, { domainId: other, email });
    }
  }

  /** The person's own link, as PUT users/current/saml/ makes it (through the route where they can sign in). */
  async function selfLink(user: UserEntity, identity: string): Promise<void> {
    const res = await t.http
      .post('/API/auth/v1/auth/simple/login/')
      .send({ email: user.email, password: DEFAULT_PASSWORD });
    const own =
      res.status === 201
        ? res.body.auth_system_domains.find(
            (d: { system_domain_id: string }) => d.system_domain_id === w.domainId,
          )
        : null;
    if (own?.token) {
      await t.http
        .put('/API/users/v1/users/current/saml/')
        .set(bearer(own.token))
        .send({ identity_provider_id: w.idp.id, email: identity })
        .expect(200);
      return;
    }
    // no session of theirs in the IdP's domain (deactivated, or not a member): the link as it would stand
    await t.ds.getRepository(UserSamlIdentityEntity).insert({
      user_id: user.id,
      system_domain_id: w.domainId,
      identity_provider_id: w.idp.id,
      email: identity,
      linked_by_self: true,
    });
  }

  /** An administrator's link: through the route for an account D owns; as it stood before, otherwise. */
  async function adminLink(user: UserEntity, identity: string): Promise<void> {
    const res = await t.http
      .put(`/API/users/v1/users/${user.id}/saml/`)
      .set(w.adminAuth)
      .send({ identity_provider_id: w.idp.id, email: identity });
    if (res.status === 200) return;
    // refused today (403 shared/super, 404 not a member): the link an earlier administrator could make
    // (or one made while the person belonged to D alone) must not sign them in either
    expect([403, 404]).toContain(res.status);
    await t.ds.getRepository(UserSamlIdentityEntity).insert({
      user_id: user.id,
      system_domain_id: w.domainId,
      identity_provider_id: w.idp.id,
      email: identity,
      linked_by_self: false,
    });
  }

  /**
   * A passkey registered to the account as the person registers one (their own recent sign-in: creation
   * options, the authenticator's answer), held by a fresh software authenticator. A deactivated account
   * registers it while still active and is deactivated afterwards, so that its refusal is the verifier's,
   * not a missing passkey's.
   */
  async function registerPasskey(user: UserEntity): Promise<SoftAuthenticator> {
    const inactive = user.status !== 'ACTIVE';
    if (inactive) await t.ds.getRepository(UserEntity).update(user.id, { status: 'ACTIVE' });
    const { token } = await tokenFor(t, user);
    const options = await t.http
      .post(`${WEBAUTHN_USERS}/registration/options/`)
      .set(bearer(token))
      .expect(200);
    const authenticator = new SoftAuthenticator();
    await t.http
      .post(`${WEBAUTHN_USERS}/registration/`)
      .set(bearer(token))
      .send({ response: authenticator.create(options.body, { origin: webOrigin() }) })
      .expect(201);
    if (inactive) await t.ds.getRepository(UserEntity).update(user.id, { status: user.status });
    return authenticator;
  }

  /** A passkey sign-in: request options (`request`: {} usernameless, or {email}), the answer, the login. */
  async function passkeyLogin(
    authenticator: SoftAuthenticator,
    request: { email?: string },
    credentialId?: string,
  ) {
    const options = await t.http.post(`${WEBAUTHN_AUTH}/options/`).send(request).expect(200);
    const response = authenticator.get(options.body, { origin: webOrigin(), credentialId });
    return t.http.post(`${WEBAUTHN_AUTH}/login/`).send({ response });
  }

  const webOrigin = () => new URL(t.config.http.publicBaseUrl).origin;

  /**
   * A passkey sign-in's session: second-factor authenticated, with the account's own super administrator
   * flag; a refusal is the verifier's (the account is inactive), the passkey being there.
   */
  async function expectPasskeySession(
    user: UserEntity,
    session: { token: string; body: Record<string, unknown> } | null,
  ): Promise<void> {
    if (!session) {
      expect(await lastPasskeyRefusal(user.id)).toBe('inactive');
      return;
    }
    expect(session.body.is_mfa_authenticated).toBe(true);
    expect(session.body.is_super_admin).toBe(user.is_super_admin);
  }

  /** The reason of the last refused passkey sign-in recorded against the account (the 401 names none). */
  async function lastPasskeyRefusal(userId: string): Promise<unknown> {
    const [event] = await t.ds.getRepository(AuditEventEntity).find({
      where: { action: 'signin.failure', target_id: userId },
      order: { date_created: 'DESC' },
      take: 1,
    });
    expect(event?.details.factor).toBe('webauthn');
    return event?.details.reason;
  }

  /** Signs in; the login token for the IdP's domain (or any, for the service's own), or null when refused. */
  async function signIn(
    a: Authn,
    user: UserEntity,
  ): Promise<{ token: string; body: Record<string, unknown> } | null> {
    if (a === 'password') {
      const res = await t.http
        .post('/API/auth/v1/auth/simple/login/')
        .send({ email: user.email, password: DEFAULT_PASSWORD });
      return res.status === 201 ? { token: res.body.token, body: res.body } : null;
    }
    if (a === 'passkey') {
      const res = await passkeyLogin(await registerPasskey(user), {});
      if (res.status !== 201) {
        expect(res.status).toBe(401);
        return null;
      }
      return { token: res.body.token, body: res.body };
    }
    if (a === 'email link') {
      await t.http.post('/API/auth/v1/auth/email/login/').send({ email: user.email }).expect(201);
      let secret: string;
      try {
        secret = await mailedSecret(t, user.email, 'login/email');
      } catch {
        return null; // nothing mailed: the account may not sign in
      }
      const res = await t.http.post(`/API/auth/v1/auth/email/login/${secret}/`);
      return res.status === 201 ? { token: res.body.token, body: res.body } : null;
    }
    let asserted = user.email;
    if (a !== 'tenant IdP, unlinked') {
      asserted = `idp-${randomUUID().slice(0, 8)}@directory.acme-idp.test`;
      if (a === 'tenant IdP, linked by the person') await selfLink(user, asserted);
      else await adminLink(user, asserted);
    }
    const id = await w.startRequest();
    const acs = await w.post(w.response({ inResponseTo: id, email: asserted }));
    if (acs.status !== 302) {
      expect(acs.status).toBe(401);
      return null;
    }
    const res = await t.http.post(`${SAML}/token/`).send({ code: codeOf(acs.location) });
    return res.status === 201 ? { token: res.body.token, body: res.body } : null;
  }

  for (const a of AUTHNS) {
    for (const acc of ACCOUNTS) {
      const expected = SIGN_IN[a][acc];
      describe(`${a} × ${acc}`, () => {
        it(`sign in: ${expected}`, async () => {
          const user = await account(acc);
          const session = await signIn(a, user);
          expect(session ? 'ok' : 'refused').toBe(expected);
          if (a === 'passkey') return expectPasskeySession(user, session);
          if (!session || !a.startsWith('tenant')) return;
          // a tenant's session: that domain only, never a second factor, never a super administrator's power
          expect(session.body.is_mfa_authenticated).toBe(false);
          expect(session.body.is_super_admin).toBe(false);
          expect(session.body.auth_system_domains).toHaveLength(1);
          const validated = await t.http
            .get('/API/auth/v1/auth/token/')
            .set(bearer(session.token))
            .expect(200);
          expect(validated.body.system_domain_id).toBe(w.domainId);
          if (acc === 'super administrator')
            await t.http.get('/API/auth/v1/referral_codes/').set(bearer(session.token)).expect(403);
        });

        if (expected === 'ok') {
          const change = CHANGE(a, acc);
          it(`change password: ${change}`, async () => {
            const user = await account(acc);
            const session = (await signIn(a, user))!;
            await expectPasswordChange(t, session.token, user.email, change);
          });

          it(`enrol a factor: ${change}`, async () => {
            const user = await account(acc);
            const session = (await signIn(a, user))!;
            await expectFactorEnrolment(t, session.token, change);
          });
        }
      });
    }
  }

  /**
   * A tenant's provisioning client (SCIM, issue 43) follows the same rule: it sees and changes only the
   * accounts its domain owns (a deactivated one included), and creating an account with an existing email
   * (any kind, any case) is a 409 `uniqueness`, never a way to take it over.
   */
  const PROVISIONING = row('ok', 'refused', 'refused', 'ok', 'refused');
  for (const acc of ACCOUNTS) {
    it(`provisioning (SCIM) × ${acc}: manage ${PROVISIONING[acc]}; its email is no way in (409)`, async () => {
      const user = await account(acc);
      const provisioner = await createUser(t, { domainId: w.domainId, isAdmin: true });
      const scim = bearer((await tokenFor(t, provisioner, { kind: 'SCIM', domainId: w.domainId })).token);
      const manages = PROVISIONING[acc] === 'ok';
      const seen = await t.http.get(`/API/scim/v2/Users/${user.id}`).set(scim);
      expect(seen.status).toBe(manages ? 200 : 404);
      const renamed = await t.http
        .patch(`/API/scim/v2/Users/${user.id}`)
        .set(scim)
        .send({ Operations: [{ op: 'replace', value: { 'name.givenName': 'Renamed' } }] });
      expect(renamed.status).toBe(manages ? 200 : 404);
      const listed = await t.http
        .get('/API/scim/v2/Users')
        .query({ filter: `userName eq "${user.email}"` })
        .set(scim)
        .expect(200);
      expect(listed.body.totalResults).toBe(manages ? 1 : 0);
      const created = await t.http
        .post('/API/scim/v2/Users')
        .set(scim)
        .send({ userName: user.email.toUpperCase(), active: true });
      expect(created.status).toBe(409);
      expect(created.body.scimType).toBe('uniqueness');
      const after = await t.ds.getRepository(UserEntity).findOneByOrFail({ id: user.id });
      expect(after.first_name).toBe(manages ? 'Renamed' : user.first_name);
      expect(after.status).toBe(user.status);
    });
  }

  it('a passkey never vouches across accounts: A’s passkey answering options asked for B’s email is refused', async () => {
    const a = await account('owned by the IdP’s domain');
    const b = await account('owned by the IdP’s domain');
    const mine = await registerPasskey(a);
    await registerPasskey(b); // B holds a passkey of its own: the options name it, not a decoy
    const [credential] = mine.credentials;
    const refused = await passkeyLogin(mine, { email: b.email }, credential.id);
    expect(refused.status).toBe(401);
    expect(refused.body.token).toBeUndefined();
    // refused for the account binding (the challenge was B's), not for a broken assertion
    expect(await lastPasskeyRefusal(a.id)).toBe('another_account');
    // the same passkey, asked for its own account's email, signs A in (and A only)
    const own = await passkeyLogin(mine, { email: a.email }, credential.id);
    expect(own.status).toBe(201);
    const validated = await t.http.get('/API/auth/v1/auth/token/').set(bearer(own.body.token)).expect(200);
    expect(validated.body.user_id).toBe(a.id);
  });

  it('an administrator’s link stops vouching once the person joins another domain (re-checked at every use)', async () => {
    const user = await account('owned by the IdP’s domain');
    const identity = `idp-${randomUUID().slice(0, 8)}@directory.acme-idp.test`;
    await adminLink(user, identity);
    const first = await w.post(w.response({ inResponseTo: await w.startRequest(), email: identity }));
    expect(first.status).toBe(302);
    await t.http
      .post(`${SAML}/token/`)
      .send({ code: codeOf(first.location) })
      .expect(201);
    // the person joins tenant B: D no longer owns the account, and its administrator's link stops working
    await t.ds.query(
      'INSERT INTO user_system_domains (user_id, system_domain_id, is_admin) VALUES ($1, $2, false)',
      [user.id, other],
    );
    const again = await w.post(w.response({ inResponseTo: await w.startRequest(), email: identity }));
    expect(again.status).toBe(401);
  });

  it('a code issued while D owned the account is refused if it stops owning it before the exchange', async () => {
    const user = await account('owned by the IdP’s domain');
    const acs = await w.post(w.response({ inResponseTo: await w.startRequest(), email: user.email }));
    expect(acs.status).toBe(302);
    await t.ds.query(
      'INSERT INTO user_system_domains (user_id, system_domain_id, is_admin) VALUES ($1, $2, false)',
      [user.id, other],
    );
    await t.http
      .post(`${SAML}/token/`)
      .send({ code: codeOf(acs.location) })
      .expect(401);
  });

  it('a session of an owned account loses its change rights at once when the account joins another domain', async () => {
    const user = await account('owned by the IdP’s domain');
    const session = (await signIn('tenant IdP, unlinked', user))!;
    await t.ds.query(
      'INSERT INTO user_system_domains (user_id, system_domain_id, is_admin) VALUES ($1, $2, false)',
      [user.id, other],
    );
    const res = await t.http
      .patch('/API/users/v1/users/current/')
      .set(bearer(session.token))
      .send({ password: STRONG() })
      .expect(403);
    expect(res.body.errors[0]).toMatch(/single sign-on cannot change this account/);
  });

  it('renewing a tenant’s session keeps its mark (no laundering into a service session)', async () => {
    const user = await account('shared with another domain');
    const session = (await signIn('tenant IdP, linked by the person', user))!;
    const renewed = await t.http.post('/API/auth/v1/auth/token/').set(bearer(session.token)).expect(201);
    expect(renewed.body.is_mfa_authenticated).toBe(false);
    await t.http
      .patch('/API/users/v1/users/current/')
      .set(bearer(renewed.body.token))
      .send({ password: STRONG() })
      .expect(403);
  });

  it('an SSO session authorizes an application for an account its tenant owns, never for one it does not', async () => {
    const app = await createOAuthApp(t, {
      kind: 'server',
      domainId: w.domainId,
      scopes: ['assets:read'],
      redirectUris: ['https://archive.example/cb'],
    });
    const decide = (token: string) =>
      t.http
        .post(OAUTH.authorizeApi)
        .set(bearer(token))
        .send({ ...authorizationRequest(app, pkce()), decision: 'allow' });
    const owned = (await signIn('tenant IdP, unlinked', await account('owned by the IdP’s domain')))!;
    await decide(owned.token).expect(200);
    for (const kind of ['super administrator', 'shared with another domain'] as const) {
      const session = (await signIn('tenant IdP, linked by the person', await account(kind)))!;
      const res = await decide(session.token).expect(403);
      expect(JSON.stringify(res.body)).toMatch(/single sign-on cannot authorize/);
    }
  });

  it('the person links only from a session the service vouched for, and an administrator links only what D owns', async () => {
    const owned = await account('owned by the IdP’s domain');
    const sso = (await signIn('tenant IdP, unlinked', owned))!;
    await t.http
      .put('/API/users/v1/users/current/saml/')
      .set(bearer(sso.token))
      .send({
        identity_provider_id: w.idp.id,
        email: `x-${randomUUID().slice(0, 6)}@directory.acme-idp.test`,
      })
      .expect(403);
    for (const kind of ['shared with another domain', 'super administrator'] as const) {
      const user = await account(kind);
      await t.http
        .put(`/API/users/v1/users/${user.id}/saml/`)
        .set(w.adminAuth)
        .send({
          identity_provider_id: w.idp.id,
          email: `y-${randomUUID().slice(0, 6)}@directory.acme-idp.test`,
        })
        .expect(403);
    }
  });
});
