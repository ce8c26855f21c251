import { randomUUID } from 'node:crypto';
import { Attribute, Change } from 'ldapts';
import { Secret, TOTP } from 'otpauth';
import { Clock } from '../../src/base/common/clock.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import {
  auditOf,
  DIRECTORIES,
  directoryWorld,
  type DirectoryWorld,
  membershipsOf,
  slapdSettings,
  strangerCa,
} from '../utils/directory-world.js';
import { verifyByDecision } from '../utils/saml-setup.js';
import { describeWithLdap, type Slapd, startSlapd } from '../utils/slapd.js';

const THRESHOLD = 3;
const INVALID = { errors: ['Invalid email or password'] };
const MULTI = '/API/auth/v1/auth/multidomain/login/';
const TOTP_SETUP = '/API/users/v1/users/current/totp/';
const JIT = { jit_provisioning: true };
const strong = () => `Unusual-${randomUUID()}-Phrase`;

/**
 * Sign-in against a domain's company directory (POST auth/ad/login/, issue 39) over HTTP, against a real
 * OpenLDAP (test/utils/slapd.ts): the transports and their certificate checks, Active Directory's shape and
 * group mappings, whom a directory may vouch for (the sign-in authority), the guessing defence, filter
 * injection, the second factor, the audit trail, and the administrators' CRUD and test route.
 */
describeWithLdap('directory sign-in (LDAP / Active Directory)', () => {
  let t: TestApp;
  let slapd: Slapd;
  let other: string;
  const world = (o: Parameters<typeof directoryWorld>[2] = {}) => directoryWorld(t, slapd, o);
  const userByEmail = (email: string) => t.ds.getRepository(UserEntity).findOneBy({ email });

  beforeAll(async () => {
    [slapd, t] = await Promise.all([startSlapd(), createTestApp({ LOCKOUT_THRESHOLD: String(THRESHOLD) })]);
    other = (await createDomain(t)).id;
  });
  afterAll(async () => {
    await t?.close();
    await slapd?.stop();
  });

  describe('transports', () => {
    it('ldap:// with StartTLS verified against the CA signs in; a CA that did not sign the server → 503', async () => {
      const w = await world({ transport: 'starttls', label: 'starttls' });
      const ada = await w.addPerson({ local: 'ada' });
      const account = await w.account('ada');
      const res = await w.login(ada.email, ada.password).expect(201);
      expect(res.body).toMatchObject({
        token: expect.any(String),
        user_id: account.id,
        system_domain_id: w.domainId,
        kind: 'LOGIN',
        is_mfa_authenticated: false,
      });
      const only = { system_domain_id: w.domainId, token: res.body.token };
      expect(res.body.auth_system_domains).toMatchObject([only]);
      await t.http.get('/API/auth/v1/auth/token/').set(bearer(res.body.token)).expect(200);
      // the upgrade really verifies the server: a CA of its own that did not sign slapd's certificate fails it
      await w.patch({ settings: { ca_certificate: await strangerCa() } });
      await w.login(ada.email, ada.password).expect(503);
    });

    it('ldaps:// with the CA signs in; without it (the system CAs) the TLS is refused → 503', async () => {
      const w = await world({ transport: 'ldaps', label: 'ldaps' });
      const grace = await w.addPerson({ local: 'grace' });
      await w.account('grace');
      await w.login(grace.email, grace.password).expect(201);
      expect((await w.patch({ settings: { ca_certificate: null } })).settings.ca_certificate).toBeNull();
      await w.login(grace.email, grace.password).expect(503);
      const refused = /self[- ]signed|unable to (get|verify)/i;
      expect(await w.probe()).toMatchObject({ ok: false, message: expect.stringMatching(refused) });
    });

    it('a directory that does not answer → 503 within its timeouts', async () => {
      const w = await world({
        label: 'silent',
        transport: 'plain',
        settings: { url: slapd.unreachableUrl(), connect_timeout_ms: 500, timeout_ms: 500 },
      });
      const started = Date.now();
      await w.login(w.email('anyone'), 'whatever-it-is').expect(503);
      expect(Date.now() - started).toBeLessThan(3000);
    });
  });

  describe('Active Directory', () => {
    it('signs in by userPrincipalName (default filter), provisions with givenName/sn, maps memberOf to groups and drops a removed one', async () => {
      const w = await world({ type: 'ACTIVE_DIRECTORY', label: 'ad', settings: JIT });
      const [eng, ops] = [`eng-${w.tag}`, `ops-${w.tag}`];
      // one mapping by the group's DN, one by its CN (both are names a directory's group goes by); the AD
      // entries have no mail: their userPrincipalName is the address
      const engGroup = await w.mappedGroup([`cn=${eng},${slapd.groupsDn}`]);
      const opsGroup = await w.mappedGroup([ops]);
      const notHers = await w.mappedGroup([`cn=nobody-${w.tag},${slapd.groupsDn}`]);
      const ada = await w.addPerson({ local: 'ada', givenName: 'Ada', sn: 'Lovelace', groups: [eng, ops] });
      // a group cannot lose its last member (groupOfNames): a colleague stays in eng
      await w.addPerson({ local: 'colleague', groups: [eng] });
      const first = await w.login(ada.email, ada.password).expect(201);
      const user = await userByEmail(ada.email);
      expect(user).toMatchObject({ id: first.body.user_id, first_name: 'Ada', last_name: 'Lovelace' });
      expect(await membershipsOf(t, user!.id)).toEqual([w.domainId]);
      expect(await w.membersOf(engGroup)).toEqual([user!.id]);
      expect(await w.membersOf(opsGroup)).toEqual([user!.id]);
      expect(await w.membersOf(notHers)).toEqual([]);
      // removed from eng in the directory: out of the group it maps to at the next sign-in
      const member = new Attribute({ type: 'member', values: [ada.dn] });
      await slapd.asAdmin((c) =>
        c.modify(`cn=${eng},${slapd.groupsDn}`, new Change({ operation: 'delete', modification: member })),
      );
      expect((await w.login(ada.email, ada.password).expect(201)).body.user_id).toBe(user!.id);
      expect(await w.membersOf(engGroup)).toEqual([]);
      expect(await w.membersOf(opsGroup)).toEqual([user!.id]);
    });

    it('a disabled account (userAccountControl 514) and an ambiguous match are refused like a wrong password', async () => {
      const w = await world({ type: 'ACTIVE_DIRECTORY', label: 'ad-off', settings: JIT });
      const off = await w.addPerson({ local: 'former', disabled: true });
      const wrong = await w.login(off.email, 'not-the-password').expect(401);
      expect((await w.login(off.email, off.password).expect(401)).body).toEqual(wrong.body);
      expect(await userByEmail(off.email)).toBeNull();
      // two entries answer one address: neither signs in, with either's password
      const twin = await w.addPerson({ local: 'twin' });
      await w.addPerson({ local: 'twin', password: twin.password });
      expect((await w.login(twin.email, twin.password).expect(401)).body).toEqual(INVALID);
      expect(await w.probe({ email: twin.email })).toMatchObject({ ok: false, entries: 2, entry: null });
      // the control: an enabled, unique person of the same directory signs in
      const on = await w.addPerson({ local: 'current' });
      await w.login(on.email, on.password).expect(201);
    });
  });

  describe('whom a directory may vouch for', () => {
    let w: DirectoryWorld;
    beforeAll(async () => {
      w = await world({ label: 'authority' });
    });

    it('without just-in-time provisioning an unknown person is refused; once the account exists, admitted', async () => {
      const newcomer = await w.addPerson({ local: 'newcomer' });
      expect((await w.login(newcomer.email, newcomer.password).expect(401)).body).toEqual(INVALID);
      expect(await userByEmail(newcomer.email)).toBeNull();
      await w.account('newcomer');
      await w.login(newcomer.email, newcomer.password).expect(201);
    });

    it('a super administrator and an account of another domain too are refused, with the right password', async () => {
      const boss = await w.addPerson({ local: 'boss' });
      await w.account('boss', { isSuperAdmin: true });
      const shared = await w.addPerson({ local: 'shared' });
      await w.account('shared', { domainId: other, alsoIn: [w.domainId] });
      const owned = await w.addPerson({ local: 'owned' });
      await w.account('owned');
      expect((await w.login(boss.email, boss.password).expect(401)).body).toEqual(INVALID);
      expect((await w.login(shared.email, shared.password).expect(401)).body).toEqual(INVALID);
      await w.login(owned.email, owned.password).expect(201);
    });

    it('an email domain bound but not verified: no route, and a named domain’s directory may not vouch', async () => {
      const u = await world({ label: 'unverified', verified: false });
      const person = await u.addPerson({ local: 'pat' });
      const account = await u.account('pat');
      await u.login(person.email, person.password).expect(401);
      await u.login(person.email, person.password, { system_domain_id: u.domainId }).expect(401);
      const refusals = await auditOf(t, 'signin.failure', u.directory.id);
      expect(refusals).toEqual([
        expect.objectContaining({
          system_domain_id: u.domainId,
          target_type: 'directory',
          details: { method: 'directory', reason: expect.stringMatching(/not verified/) },
        }),
      ]);
      expect(await auditOf(t, 'signin.success', account.id)).toEqual([]);
      await verifyByDecision(t, u.emailDomain, u.domainId);
      await u.login(person.email, person.password).expect(201);
    });

    it('a person the directory does not hold, or an address no directory serves → the same 401', async () => {
      await w.login(w.email('nobody'), 'anything').expect(401, INVALID);
      await w.login(`someone@unbound-${w.tag}.corp.example`, 'anything').expect(401, INVALID);
      // no local account, so no guessing defence to record it: the directory's refusal is on record itself
      const refusals = await auditOf(t, 'signin.failure', w.directory.id);
      const reason = expect.stringMatching(/finds no entry \(no local account\)/);
      expect(refusals).toEqual(
        expect.arrayContaining([expect.objectContaining({ details: { method: 'directory', reason } })]),
      );
    });
  });

  describe('guessing and injection', () => {
    it('the audit trail: signin.success by the directory, vouched by the tenant; signin.failure on a wrong password', async () => {
      const w = await world({ label: 'audit' });
      const person = await w.addPerson({ local: 'audited' });
      const account = await w.account('audited');
      await w.login(person.email, 'a-wrong-password').expect(401);
      const failures = await auditOf(t, 'signin.failure', account.id);
      const wrong = { factor: 'password', reason: 'wrong' };
      expect(failures).toMatchObject([{ target_type: 'user', details: wrong }]);
      await w.login(person.email, person.password).expect(201);
      const details = { method: 'directory', vouched_by: 'tenant', second_factor: false };
      const successes = await auditOf(t, 'signin.success', account.id);
      expect(successes).toMatchObject([{ system_domain_id: w.domainId, target_type: 'user', details }]);
    });

    it(`${THRESHOLD} wrong passwords lock the account: the right one is refused without asking the directory`, async () => {
      const w = await world({ label: 'lockout' });
      const person = await w.addPerson({ local: 'guessed' });
      const bystander = await w.addPerson({ local: 'bystander' });
      await w.account('guessed');
      for (let i = 0; i < THRESHOLD; i++) await w.login(person.email, `guess-${i}`).expect(401);
      expect((await w.login(person.email, person.password).expect(401)).body).toEqual(INVALID);
      // a directory that hangs: the locked account is still a quick 401 (never asked), anyone else a 503
      await w.patch({ settings: { url: slapd.unreachableUrl(), connect_timeout_ms: 500, timeout_ms: 500 } });
      await w.login(person.email, person.password).expect(401);
      await w.login(bystander.email, bystander.password).expect(503);
    });

    it('an empty or blank password never signs in (no unauthenticated bind), the right one does', async () => {
      const w = await world({ label: 'blank', settings: JIT });
      const person = await w.addPerson({ local: 'blank' });
      // slapd refuses an unauthenticated bind as unwilling (a 503 here): a 401 means it was never sent
      expect((await w.login(person.email, '').expect(401)).body).toEqual(INVALID);
      await w.login(person.email, ' ').expect(401);
      await w.login(person.email, person.password).expect(201);
    });

    it('{email}: `*` and `)(` in the address are values, never filter syntax', async () => {
      const w = await world({ label: 'inject', settings: JIT });
      // the only entry under that domain: an unescaped (mail=*@domain) would find exactly this one
      const victim = await w.addPerson({ local: 'victim' });
      await w.login(w.email('*'), victim.password).expect(401);
      await w.login(w.email('"*)(mail=*"'), victim.password).expect(401);
      await w.login(w.email('vic*'), victim.password).expect(401);
      expect(await w.probe({ email: w.email('*') })).toMatchObject({ ok: false, entries: 0 });
      expect(await w.probe({ email: victim.email })).toMatchObject({ ok: true, entries: 1 });
      await w.login(victim.email, victim.password).expect(201);
    });

    it('{username}: a `*` in the local part matches no uid', async () => {
      const w = await world({
        label: 'uid',
        settings: { ...JIT, user_filter: '(&(objectClass=inetOrgPerson)(uid={username}))' },
      });
      const uid = `zq${w.tag}-victim`;
      const victim = await w.addPerson({ local: uid, uid });
      await w.login(w.email(`zq${w.tag}-*`), victim.password).expect(401);
      expect(await w.probe({ email: w.email(`zq${w.tag}-*`) })).toMatchObject({ entries: 0, entry: null });
      await w.login(victim.email, victim.password).expect(201);
    });
  });

  describe('the second factor and account changes', () => {
    it('a domain that requires a factor: a temporary token instead of the token', async () => {
      const w = await world({ label: 'mfa-domain', domain: { mfa_required: true } });
      const person = await w.addPerson({ local: 'required' });
      await w.account('required');
      const res = await w.login(person.email, person.password).expect(201);
      expect(res.body).toMatchObject({ token: null, temp_token: expect.any(String) });
      expect(res.body.auth_system_domains[0]).toMatchObject({ token: null, mfa_required: true });
    });

    it('a confirmed TOTP: a temporary token, which the code completes to the domain’s Token', async () => {
      const clock = t.get(Clock);
      const code = (secret: string) =>
        new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: clock.now().getTime() });
      const w = await world({ label: 'totp' });
      const person = await w.addPerson({ local: 'totp' });
      const account = await w.account('totp');
      const own = bearer((await tokenFor(t, account, { domainId: w.domainId })).token);
      const started = await t.http.post(`${TOTP_SETUP}configure/`).set(own).expect(201);
      const otp = { otp: code(started.body.secret) };
      await t.http.post(`${TOTP_SETUP}validate_configuration/`).set(own).send(otp).expect(200);
      try {
        clock.advance(30_000); // the next time step: the code used to confirm is spent
        const res = await w.login(person.email, person.password).expect(201);
        expect(res.body).toMatchObject({ token: null, temp_token: expect.any(String) });
        const done = await t.http
          .post(MULTI)
          .set({ 'Temp-Auth-Token': res.body.temp_token })
          .send({ email: person.email, system_domain_id: w.domainId, otp: code(started.body.secret) })
          .expect(201);
        expect(done.body).toMatchObject({ token: expect.any(String), user_id: account.id });
        expect(done.body.is_mfa_authenticated).toBe(true);
      } finally {
        clock.reset();
      }
    });

    it('a directory session is the tenant’s: it cannot change the password once the account is not its domain’s alone', async () => {
      const w = await world({ label: 'change' });
      const person = await w.addPerson({ local: 'changer' });
      const account = await w.account('changer', { roles: ['can_write_users'] });
      const session = bearer((await w.login(person.email, person.password).expect(201)).body.token);
      await t.ds.query(
        'INSERT INTO user_system_domains (user_id, system_domain_id, is_admin) VALUES ($1, $2, false)',
        [account.id, other],
      );
      const change = (auth: Record<string, string>) =>
        t.http.patch('/API/users/v1/users/current/').set(auth).send({ password: strong() });
      const refused = await change(session).expect(403);
      expect(refused.body.errors[0]).toMatch(/single sign-on cannot change this account/);
      await t.http
        .post('/API/auth/v1/auth/simple/login/')
        .send({ email: account.email, password: DEFAULT_PASSWORD })
        .expect(201);
      // the person's own sign-in may (the refusal is the tenant's mark, not a missing role)
      await change(bearer((await tokenFor(t, account, { domainId: w.domainId })).token)).expect(200);
    });
  });

  describe('administrators’ CRUD and the test route', () => {
    let w: DirectoryWorld;
    beforeAll(async () => {
      w = await world({ label: 'crud' });
    });
    const leaks = (body: unknown) => JSON.stringify(body).includes(slapd.bindPassword);

    it('never shows the service account’s password: create, get, list, patch', async () => {
      const created = await t.http
        .post(DIRECTORIES)
        .set(w.adminAuth)
        .send({ name: 'Second', type: 'LDAP', settings: slapdSettings(slapd) })
        .expect(201);
      expect(created.body.settings).toMatchObject({ bind_password_set: true, start_tls: true });
      expect(created.body.settings).not.toHaveProperty('bind_password');
      const id = created.body.id;
      const got = await t.http.get(`${DIRECTORIES}${id}/`).set(w.adminAuth).expect(200);
      const list = await t.http.get(DIRECTORIES).set(w.adminAuth).expect(200);
      expect(list.body.objects.map((d: { id: string }) => d.id).sort()).toEqual([w.directory.id, id].sort());
      const patched = await t.http
        .patch(`${DIRECTORIES}${id}/`)
        .set(w.adminAuth)
        .send({ name: 'Renamed', settings: { timeout_ms: 2000 } })
        .expect(200);
      const renamed = { name: 'Renamed', settings: { timeout_ms: 2000, bind_password_set: true } };
      expect(patched.body).toMatchObject(renamed);
      for (const body of [created.body, got.body, list.body, patched.body]) expect(leaks(body)).toBe(false);
      const first = list.body.objects.find((d: { id: string }) => d.id === w.directory.id);
      expect(first.domains).toEqual([w.emailDomain]); // the email domains bound to it
    });

    it.each([
      ['an http:// URL', { url: 'http://127.0.0.1:389' }, 'settings.url'],
      ['a filter without a placeholder', { user_filter: '(mail=someone)' }, 'settings.user_filter'],
      ['an unbalanced filter', { user_filter: '(&(mail={email})' }, 'settings.user_filter'],
      ['an unknown setting', { referrals: true }, 'settings.referrals'],
      ['StartTLS on ldaps://', { url: 'ldaps://127.0.0.1:636', start_tls: true }, 'settings.start_tls'],
    ])('400 for %s', async (_what, over, field) => {
      const res = await t.http
        .post(DIRECTORIES)
        .set(w.adminAuth)
        .send({ name: 'Bad', type: 'LDAP', settings: slapdSettings(slapd, 'starttls', over) })
        .expect(400);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    });

    it('a member who is no administrator: 403; another domain’s administrator: 404 for each route', async () => {
      const member = bearer((await tokenFor(t, await createUser(t, { domainId: w.domainId }))).token);
      const stranger = (await world({ label: 'stranger' })).adminAuth;
      const one = `${DIRECTORIES}${w.directory.id}/`;
      await t.http.get(DIRECTORIES).set(member).expect(403);
      await t.http.get(one).set(member).expect(403);
      await t.http.get(one).set(stranger).expect(404);
      await t.http.patch(one).set(stranger).send({ name: 'Mine' }).expect(404);
      await t.http.post(`${one}test/`).set(stranger).send({}).expect(404);
      await t.http.delete(one).set(stranger).expect(404);
      expect((await t.http.get(one).set(w.adminAuth).expect(200)).body.name).toBe(w.directory.name);
    });

    it('the test route: ok with the service password, stops at bind with a wrong one, finds one entry by email', async () => {
      const d = await world({ label: 'probe' });
      const person = await d.addPerson({ local: 'probe', givenName: 'Pro', sn: 'Be' });
      const ok = await d.probe();
      expect(ok).toMatchObject({ ok: true, stage: 'done', entries: 0, entry: null });
      const found = await d.probe({ email: person.email });
      expect(found).toMatchObject({
        ok: true,
        entries: 1,
        entry: { dn: person.dn, email: person.email, first_name: 'Pro', last_name: 'Be', disabled: false },
      });
      await d.patch({ settings: { bind_password: 'not-the-service-password' } });
      const bad = await d.probe({ email: person.email });
      expect(bad).toMatchObject({ ok: false, stage: 'bind', entries: 0, message: expect.any(String) });
      for (const body of [ok, found, bad]) expect(leaks(body)).toBe(false);
      expect(JSON.stringify(bad)).not.toContain('not-the-service-password');
    });

    it('DELETE: 204, gone, and its people are refused', async () => {
      const d = await world({ label: 'deleted' });
      const person = await d.addPerson({ local: 'leaver' });
      await d.account('leaver');
      await d.login(person.email, person.password).expect(201);
      await t.http.delete(`${DIRECTORIES}${d.directory.id}/`).set(d.adminAuth).expect(204);
      await t.http.get(`${DIRECTORIES}${d.directory.id}/`).set(d.adminAuth).expect(404);
      await d.login(person.email, person.password).expect(401);
      await d.login(person.email, person.password, { system_domain_id: d.domainId }).expect(401);
    });
  });
});
