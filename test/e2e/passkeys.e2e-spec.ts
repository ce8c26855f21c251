// Passkeys (issue 42) over HTTP, with the software authenticator of test/utils/soft-authenticator.ts playing
// the browser and the platform passkey: registration (an account change), the passwordless and usernameless
// sign-in, the second step of a password sign-in, every refusal of an assertion (one answer, nothing issued),
// the cloned-authenticator flag, the guessing defence, the administrators' removal, the audit trail, webhook
// events and mails, and the domains' second-factor policy.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { Clock } from '../../src/base/common/clock.js';
import { AuditEventEntity } from '../../src/base/model/audit-event.entity.js';
import { LoginAttemptEntity } from '../../src/base/model/guessing-defence.entity.js';
import { MailOutboxEntity } from '../../src/base/model/mail-outbox.entity.js';
import type { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { TokenEntity } from '../../src/base/model/token.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { WebhookEventsService } from '../../src/delivery/events/webhook-events.service.js';
import type { WebhookEvent } from '../../src/delivery/events/webhook-events.service.js';
import { createApp, createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedText } from '../utils/mail.js';
import { SoftAuthenticator, type SoftGetOptions } from '../utils/soft-authenticator.js';

const LOGIN = '/API/auth/v1/auth/simple/login/';
const VALIDATE = '/API/auth/v1/auth/token/';
const POLICY = '/API/auth/v1/system_domains/current/mfa/';
const MINE = '/API/users/v1/users/current/webauthn/';
const REG_OPTIONS = `${MINE}registration/options/`;
const REGISTER = `${MINE}registration/`;
const OPTIONS = '/API/auth/v1/auth/webauthn/options/';
const PASSKEY_LOGIN = '/API/auth/v1/auth/webauthn/login/';
const ofUser = (userId: string) => `/API/users/v1/users/${userId}/webauthn/`;

const REFUSED = { errors: ['Passkey not accepted'] };
const REAUTH_WINDOW_MS = 900_000;
const CEREMONY_MS = 5 * 60_000;
const LOCKOUT_THRESHOLD = 5; // the default (docs/security.md, Guessing defence)
const LOCK_BASE_MS = 60_000;

const temp = (token: string) => ({ 'Temp-Auth-Token': token });

/** A person with a registered passkey: the authenticator holding it and what the service answered. */
interface Holder {
  user: UserEntity;
  authn: SoftAuthenticator;
  passkey: { id: string; name: string };
  /** the credential id the authenticator holds (base64url) */
  credentialId: string;
  /** the account's WebAuthn user handle (the creation options' user.id) */
  userHandle: string;
}

describe('passkeys (WebAuthn)', () => {
  let t: TestApp;
  let clock: Clock;
  let origin: string;
  /** What webhooks would be sent (WebhookEventsService.record), in order. */
  let recorded: WebhookEvent[];

  beforeAll(async () => {
    t = await createTestApp();
    clock = t.get(Clock);
    origin = new URL(t.config.http.publicBaseUrl).origin;
    recorded = [];
    const events = t.get(WebhookEventsService);
    const record = events.record.bind(events);
    jest.spyOn(events, 'record').mockImplementation(async (em, event) => {
      recorded.push(event);
      return record(em, event);
    });
  });
  afterEach(() => clock.reset());
  afterAll(() => t.close());

  // ---- helpers -------------------------------------------------------------------------------------------

  const loginOf = async (user: UserEntity) => bearer((await tokenFor(t, user)).token);

  async function creationOptions(
    auth: Record<string, string>,
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    return (await t.http.post(REG_OPTIONS).set(auth).expect(200)).body;
  }

  const postRegistration = (
    auth: Record<string, string>,
    response: RegistrationResponseJSON,
    name?: string,
  ) =>
    t.http
      .post(REGISTER)
      .set(auth)
      .send({ response, ...(name === undefined ? {} : { name }) });

  /** Registers a new passkey for `user` (through the API, with their own fresh sign-in). */
  async function withPasskey(user?: UserEntity, authn = new SoftAuthenticator()): Promise<Holder> {
    const u = user ?? (await createUser(t));
    const auth = await loginOf(u);
    const options = await creationOptions(auth);
    const response = authn.create(options, { origin });
    const res = await postRegistration(auth, response, 'Laptop').expect(201);
    return { user: u, authn, passkey: res.body, credentialId: response.id, userHandle: options.user.id };
  }

  async function requestOptions(
    o: { email?: string; temp?: string } = {},
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const req = t.http.post(OPTIONS);
    if (o.temp) req.set(temp(o.temp));
    return (await req.send(o.email ? { email: o.email } : {}).expect(200)).body;
  }

  function passkeyLogin(response: AuthenticationResponseJSON, o: { temp?: string; domainId?: string } = {}) {
    const req = t.http.post(PASSKEY_LOGIN);
    if (o.temp) req.set(temp(o.temp));
    return req.send({ response, ...(o.domainId ? { system_domain_id: o.domainId } : {}) });
  }

  /** Options (usernameless by default), the authenticator's answer to them (misbehaving as told). */
  async function assertion(
    authn: SoftAuthenticator,
    o: { email?: string; temp?: string; get?: Partial<SoftGetOptions> } = {},
  ): Promise<AuthenticationResponseJSON> {
    const options = await requestOptions(o);
    return authn.get(options, { origin, ...o.get });
  }

  /** A passkey sign-in with options and an answer made for it (usernameless unless `email`). */
  async function signInWith(
    authn: SoftAuthenticator,
    o: { email?: string; temp?: string; get?: Partial<SoftGetOptions>; domainId?: string } = {},
  ) {
    return passkeyLogin(await assertion(authn, o), o);
  }

  /** The same, and it signs in (201). */
  async function signedIn(
    authn: SoftAuthenticator,
    o: { email?: string; temp?: string; get?: Partial<SoftGetOptions>; domainId?: string } = {},
  ) {
    const res = await signInWith(authn, o);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
    return res;
  }

  const tokenCount = async (userId: string) => t.ds.getRepository(TokenEntity).countBy({ user_id: userId });

  /**
   * A 401 that issues no token of any kind to any of `userIds`; its body is `body` (the passkey routes'
   * one refusal), unless null (a Temp-Auth-Token that is not a live temporary token is refused by the
   * authenticator, with its own message).
   */
  async function expectRefused(
    userIds: string | string[],
    attempt: () => Promise<{ status: number; body: unknown }>,
    body: unknown = REFUSED,
  ) {
    const ids = [userIds].flat();
    const before = await Promise.all(ids.map(tokenCount));
    const res = await attempt();
    expect(res.status).toBe(401);
    if (body !== null) expect(res.body).toEqual(body);
    expect(await Promise.all(ids.map(tokenCount))).toEqual(before);
  }

  const passwordSignIn = async (email: string) =>
    (await t.http.post(LOGIN).send({ email, password: DEFAULT_PASSWORD }).expect(201)).body;

  const listMine = async (auth: Record<string, string>) =>
    (await t.http.get(MINE).set(auth).expect(200)).body;

  const auditOf = (userId: string, action: string) =>
    t.ds.getRepository(AuditEventEntity).find({
      where: { target_id: userId, action },
      order: { date_created: 'ASC' },
    });

  /** The reasons of the passkey sign-in refusals on record for `userId`, oldest first. */
  const refusalReasons = async (userId: string) =>
    (await auditOf(userId, 'signin.failure'))
      .filter((r) => r.details.factor === 'webauthn')
      .map((r) => r.details.reason);

  const mailKinds = async (email: string) =>
    (
      await t.ds.getRepository(MailOutboxEntity).find({
        where: { to_address: email },
        order: { date_created: 'ASC' },
      })
    ).map((m) => m.kind);

  const webauthnEvents = (userId: string) =>
    recorded.filter((e) => e.objectId === userId && e.eventType === 'users' && e.realm === 'webauthn');

  // ---- registration --------------------------------------------------------------------------------------

  describe('registration', () => {
    it('creation options name the RP and a random stable handle; register, list, rename, remove', async () => {
      const user = await createUser(t);
      const auth = await loginOf(user);
      const first = await creationOptions(auth);
      expect(first.rp).toEqual({ id: 'localhost', name: 'Portcullis' });
      expect(first.user.name).toBe(user.email);
      expect(first.user.id).toMatch(/^[A-Za-z0-9_-]{40,}$/);
      expect(first.user.id).not.toContain(user.email);
      expect(first.user.id).not.toBe(user.id);
      expect(Buffer.from(first.user.id, 'base64url').toString('utf8')).not.toContain(user.email);
      expect(Buffer.from(first.user.id, 'base64url').toString('hex')).not.toContain(
        user.id.replace(/-/g, ''),
      );
      expect(first.pubKeyCredParams.map((p) => p.alg)).toEqual([-7, -257]);
      expect(first.attestation).toBe('none');
      expect(first.authenticatorSelection).toMatchObject({ residentKey: 'preferred' });
      expect(first.excludeCredentials).toEqual([]);
      const second = await creationOptions(auth);
      expect(second.user.id).toBe(first.user.id);
      expect(second.challenge).not.toBe(first.challenge);

      const authn = new SoftAuthenticator();
      const response = authn.create(second, { origin });
      const created = await postRegistration(auth, response, 'Laptop').expect(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Laptop',
        date_created: expect.any(String),
        last_used: null,
        transports: ['internal', 'hybrid'],
        aaguid: '00000000-0000-0000-0000-000000000000',
        device_type: 'singleDevice',
        backed_up: false,
        flagged_at: null,
      });
      // the credential id and key are the service's alone
      expect(JSON.stringify(created.body)).not.toContain(response.id);

      // a new registration excludes it (the authenticator then refuses to make a second one)
      const third = await creationOptions(auth);
      expect(third.excludeCredentials).toEqual([
        { id: response.id, type: 'public-key', transports: ['internal', 'hybrid'] },
      ]);
      expect(() => authn.create(third, { origin })).toThrow(
        expect.objectContaining({ name: 'InvalidStateError' }),
      );

      const listed = await listMine(auth);
      expect(listed).toMatchObject({ total: 1, page: 1, pages: 1 });
      expect(listed.objects).toEqual([created.body]);

      const renamed = await t.http
        .patch(`${MINE}${created.body.id}/`)
        .set(auth)
        .send({ name: '  Work laptop ' })
        .expect(200);
      expect(renamed.body).toEqual({ ...created.body, name: 'Work laptop' });
      await t.http.patch(`${MINE}${created.body.id}/`).set(auth).send({ name: '' }).expect(400);
      const blank = await t.http
        .patch(`${MINE}${created.body.id}/`)
        .set(auth)
        .send({ name: '   ' })
        .expect(400);
      expect(blank.headers['x-error-code']).toBe('passkeys.INVALID');
      expect(JSON.stringify(blank.body)).toContain('must not be blank');
      await t.http.patch(`${MINE}${randomUUID()}/`).set(auth).send({ name: 'x' }).expect(404);
      // another person sees nothing of it, and can neither rename nor remove it
      const other = await loginOf(await createUser(t));
      expect((await listMine(other)).objects).toEqual([]);
      await t.http.patch(`${MINE}${created.body.id}/`).set(other).send({ name: 'mine' }).expect(404);
      await t.http.delete(`${MINE}${created.body.id}/`).set(other).expect(404);

      await t.http.delete(`${MINE}${created.body.id}/`).set(auth).expect(204);
      expect(await listMine(auth)).toMatchObject({ total: 0, objects: [] });
      await t.http.delete(`${MINE}${created.body.id}/`).set(auth).expect(404);
      // a malformed id is a 404, a NUL in it the hostile-input 400 (both declared; nothing removed)
      await t.http.delete(`${MINE}not-a-uuid/`).set(auth).expect(404);
      await t.http.delete(`${MINE}a%00b/`).set(auth).expect(400);
      await t.http.delete(`${ofUser(user.id)}a%00b/`).set(await loginOf(t.admin)).expect(400);
      // no name: the default one
      const unnamed = await postRegistration(
        auth,
        authn.create(await creationOptions(auth), { origin }),
      ).expect(201);
      expect(unnamed.body.name).toBe('Passkey');
    });

    it('is an account change: a sign-in older than the re-authentication window, a PAT, an OAuth token are refused', async () => {
      const user = await createUser(t);
      const auth = await loginOf(user);
      const options = await creationOptions(auth);
      clock.advance(REAUTH_WINDOW_MS + 60_000);
      // the same token, its sign-in no longer recent: neither options nor the registration itself
      const stale = await t.http.post(REG_OPTIONS).set(auth).expect(403);
      expect(stale.headers['x-error-code']).toBe('auth.ACCOUNT_CHANGE_RECENT_SIGN_IN');
      await postRegistration(auth, new SoftAuthenticator().create(options, { origin })).expect(403);
      // a fresh sign-in may
      await t.http
        .post(REG_OPTIONS)
        .set(await loginOf(user))
        .expect(200);

      const pat = await tokenFor(t, user, {
        kind: 'PAT',
        appId: (await createApp(t, { defaultUserId: user.id })).id,
      });
      const byPat = await t.http.post(REG_OPTIONS).set(bearer(pat.token)).expect(403);
      expect(byPat.headers['x-error-code']).toBe('auth.ACCOUNT_CHANGE_OWN_SIGN_IN');
      const oauthApp = await createApp(t, {
        type: 'OAUTH',
        clientType: 'confidential',
        scopes: ['users:read', 'users:write'],
      });
      const oauth = await tokenFor(t, user, {
        kind: 'OAUTH',
        appId: oauthApp.id,
        scopes: ['users:read', 'users:write'],
      });
      const byOauth = await t.http.post(REG_OPTIONS).set(bearer(oauth.token));
      expect(byOauth.status).toBe(403);
      // neither left anything registered; the listing itself is open to any of the person's credentials
      expect((await t.http.get(MINE).set(bearer(pat.token)).expect(200)).body.total).toBe(0);
    });

    it('refuses a reused challenge, another person’s challenge, a wrong origin or RP ID (400); the same credential twice (409)', async () => {
      const user = await createUser(t);
      const auth = await loginOf(user);
      const authn = new SoftAuthenticator();
      const refused = async (response: RegistrationResponseJSON) => {
        const res = await postRegistration(auth, response).expect(400);
        expect(res.headers['x-error-code']).toBe('passkeys.REGISTRATION_REFUSED');
      };

      // a wrong origin, a wrong RP ID (each uses its challenge up)
      await refused(authn.create(await creationOptions(auth), { origin: 'https://evil.example' }));
      await refused(authn.create(await creationOptions(auth), { origin, rpId: 'evil.example' }));
      // a challenge the service never handed out
      await refused(authn.create(await creationOptions(auth), { origin, challenge: 'bm90LWEtY2hhbGxlbmdl' }));
      // another person's options
      const otherOptions = await creationOptions(await loginOf(await createUser(t)));
      await refused(authn.create(otherOptions, { origin }));
      // the registration ceremony only: a sign-in challenge is not a registration's
      const signInOptions = await requestOptions();
      await refused(
        authn.create(await creationOptions(auth), { origin, challenge: signInOptions.challenge }),
      );
      expect((await listMine(auth)).total).toBe(0);

      const options = await creationOptions(auth);
      const response = authn.create(options, { origin });
      await postRegistration(auth, response).expect(201);
      // the same answer again, and a new credential made for options already used
      await refused(response);
      await refused(authn.create({ ...options, excludeCredentials: [] }, { origin }));
      expect((await listMine(auth)).total).toBe(1);

      // The same credential registered again: a 'none' attestation signs nothing, so the first answer's
      // attestation object (credential id, public key) is presented with client data naming fresh options.
      const withFreshChallenge = (challenge: string): RegistrationResponseJSON => ({
        ...response,
        response: {
          ...response.response,
          clientDataJSON: Buffer.from(
            JSON.stringify({ type: 'webauthn.create', challenge, origin, crossOrigin: false }),
          ).toString('base64url'),
        },
      });
      const again = await postRegistration(auth, withFreshChallenge((await creationOptions(auth)).challenge));
      expect(again.status).toBe(409);
      expect(again.headers['x-error-code']).toBe('passkeys.ALREADY_REGISTERED');
      // by another account neither
      const thief = await loginOf(await createUser(t));
      await postRegistration(thief, withFreshChallenge((await creationOptions(thief)).challenge)).expect(409);
      expect((await listMine(auth)).total).toBe(1);
      expect((await listMine(thief)).total).toBe(0);
    });
  });

  // ---- signing in with a passkey alone -------------------------------------------------------------------

  describe('passwordless sign-in', () => {
    it('usernameless: empty allowCredentials, user verification required; the user handle names the account', async () => {
      const a = await withPasskey();
      const b = await withPasskey();
      const options = await requestOptions();
      expect(options).toMatchObject({
        rpId: 'localhost',
        userVerification: 'required',
        allowCredentials: [],
      });
      const res = await passkeyLogin(b.authn.get(options, { origin })).expect(201);
      expect(res.body).toMatchObject({
        token: expect.any(String),
        user_id: b.user.id,
        kind: 'LOGIN',
        is_mfa_authenticated: true,
        system_domain_id: t.domainId,
      });
      expect(res.body.temp_token).toBeUndefined();
      expect(res.body.auth_system_domains).toEqual([
        expect.objectContaining({
          system_domain_id: t.domainId,
          token: expect.any(String),
          mfa_required: false,
        }),
      ]);
      const check = await t.http.get(VALIDATE).set(bearer(res.body.token)).expect(200);
      expect(check.body).toMatchObject({ user_id: b.user.id, is_mfa_authenticated: true });
      // and the other account's passkey names the other account
      const other = await signedIn(a.authn);
      expect(other.body.user_id).toBe(a.user.id);
      // the use is shown
      const listed = (await listMine(await loginOf(b.user))).objects;
      expect(listed[0].last_used).toEqual(expect.any(String));
    });

    it('email-scoped: that account’s passkeys, user verification required', async () => {
      const h = await withPasskey();
      // a second passkey, on another authenticator
      const phone = await withPasskey(h.user);
      const options = await requestOptions({ email: h.user.email });
      expect(options.userVerification).toBe('required');
      expect(options.allowCredentials!.map((c) => c.id).sort()).toEqual(
        [h.credentialId, phone.credentialId].sort(),
      );
      expect(options.allowCredentials![0]).toEqual({
        id: expect.any(String),
        type: 'public-key',
        transports: ['internal', 'hybrid'],
      });
      const res = await passkeyLogin(h.authn.get(options, { origin })).expect(201);
      expect(res.body).toMatchObject({ user_id: h.user.id, is_mfa_authenticated: true });
      const other = await signedIn(phone.authn, { email: h.user.email });
      expect(other.body.user_id).toBe(h.user.id);
    });

    it('an unknown email and an account without passkeys get one decoy credential, the same each time', async () => {
      const holder = await withPasskey();
      const real = (await requestOptions({ email: holder.user.email })).allowCredentials!;
      const bare = await createUser(t);
      const unknown = `nobody-${randomUUID().slice(0, 8)}@example.com`;
      for (const email of [unknown, bare.email]) {
        const one = await requestOptions({ email });
        const two = await requestOptions({ email });
        expect(one.allowCredentials).toHaveLength(1);
        expect(two.allowCredentials).toEqual(one.allowCredentials);
        expect(one.userVerification).toBe('required');
        expect(two.challenge).not.toBe(one.challenge);
        // the shape of an account's own
        expect(Object.keys(one.allowCredentials![0]).sort()).toEqual(Object.keys(real[0]).sort());
        expect(one.allowCredentials![0].id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      }
      const decoyUnknown = (await requestOptions({ email: unknown })).allowCredentials![0].id;
      const decoyBare = (await requestOptions({ email: bare.email })).allowCredentials![0].id;
      expect(decoyUnknown).not.toBe(decoyBare);
      expect([decoyUnknown, decoyBare]).not.toContain(holder.credentialId);
    });

    it('system_domain_id: only that domain’s token (a user in two domains)', async () => {
      const second = await createDomain(t);
      const h = await withPasskey(await createUser(t, { alsoIn: [second.id] }));
      const all = await signedIn(h.authn);
      expect(
        all.body.auth_system_domains.map((d: { system_domain_id: string }) => d.system_domain_id).sort(),
      ).toEqual([t.domainId, second.id].sort());
      const one = await signedIn(h.authn, { domainId: second.id });
      expect(one.body.auth_system_domains).toEqual([
        expect.objectContaining({ system_domain_id: second.id, token: expect.any(String) }),
      ]);
      expect(one.body).toMatchObject({ system_domain_id: second.id, token: expect.any(String) });
      const check = await t.http.get(VALIDATE).set(bearer(one.body.token)).expect(200);
      expect(check.body.system_domain_id).toBe(second.id);
      // a domain the user is not a member of: refused, nothing issued
      const foreign = await createDomain(t);
      await expectRefused(h.user.id, () => signInWith(h.authn, { domainId: foreign.id }));
    });
  });

  // ---- the second step of a password sign-in -------------------------------------------------------------

  describe('second factor', () => {
    it('a password sign-in owes the passkey; user presence completes it; the temporary token is used up', async () => {
      const h = await withPasskey();
      const first = await passwordSignIn(h.user.email);
      expect(first.token).toBeNull();
      expect(first.temp_token).toEqual(expect.any(String));
      expect(first.auth_system_domains[0]).toMatchObject({
        token: null,
        mfa_required: true,
        mfa_methods_configured: expect.arrayContaining(['WEBAUTHN']),
      });
      const options = await requestOptions({ temp: first.temp_token });
      expect(options.userVerification).toBe('preferred');
      expect(options.allowCredentials!.map((c) => c.id)).toEqual([h.credentialId]);
      const res = await passkeyLogin(h.authn.get(options, { origin, userVerified: false }), {
        temp: first.temp_token,
      }).expect(201);
      expect(res.body).toMatchObject({
        token: expect.any(String),
        user_id: h.user.id,
        system_domain_id: t.domainId,
        kind: 'LOGIN',
        is_mfa_authenticated: true,
      });
      const check = await t.http.get(VALIDATE).set(bearer(res.body.token)).expect(200);
      expect(check.body).toMatchObject({ user_id: h.user.id, is_mfa_authenticated: true });
      // used up: neither options nor a sign-in with it
      await expectRefused(h.user.id, () => t.http.post(OPTIONS).set(temp(first.temp_token)).send({}), null);
      await expectRefused(
        h.user.id,
        async () => passkeyLogin(h.authn.get(options, { origin }), { temp: first.temp_token }),
        null,
      );
      // the audit trail names how
      const [used] = await auditOf(h.user.id, 'passkey.used');
      expect(used.details).toMatchObject({ second_factor: true });
    });
  });

  // ---- refusals ------------------------------------------------------------------------------------------

  describe('every refusal is the same 401, and issues nothing', () => {
    const otherKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;

    // answers the guessing defence counts (the signature check and what it covers)
    it.each<[string, Partial<SoftGetOptions>]>([
      ['a wrong origin', { origin: 'https://evil.example' }],
      ['a wrong RP ID', { rpId: 'evil.example' }],
      ['a wrong client data type', { type: 'webauthn.create' }],
      ['no user presence', { userPresent: false }],
      ['no user verification (passwordless)', { userVerified: false }],
      ['a forged signature (another key)', { signWith: otherKey }],
      ['a tampered signature', { tamperSignature: true }],
    ])('%s', async (_, misbehaviour) => {
      const h = await withPasskey();
      await expectRefused(h.user.id, () => signInWith(h.authn, { get: misbehaviour }));
      const [failure] = await auditOf(h.user.id, 'signin.failure');
      expect(failure.details).toMatchObject({ factor: 'webauthn', reason: 'wrong' });
      // the same passkey, answering properly, signs in
      await signedIn(h.authn);
    });

    it('a replayed assertion (its challenge used)', async () => {
      const h = await withPasskey();
      const response = await assertion(h.authn);
      await passkeyLogin(response).expect(201);
      await expectRefused(h.user.id, () => passkeyLogin(response));
      const [failure] = await auditOf(h.user.id, 'signin.failure');
      expect(failure.details).toMatchObject({ factor: 'webauthn', reason: 'unknown_challenge' });
    });

    it('one assertion sent five times at once: exactly one sign-in (the challenge is claimed once)', async () => {
      const h = await withPasskey();
      const response = await assertion(h.authn);
      const before = await tokenCount(h.user.id);
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => passkeyLogin(response)));
      expect(answers.map((r) => r.status).sort()).toEqual([201, 401, 401, 401, 401]);
      expect(await tokenCount(h.user.id)).toBe(before + 1);
    });

    it('two copies answering with one counter value at once, each over its own challenge: one passes', async () => {
      const h = await withPasskey();
      const copy = h.authn.clone();
      // both report counter 1 (the clone was taken before either was used): only one use can record it
      const [a, b] = [await assertion(h.authn), await assertion(copy)];
      const answers = await Promise.all([passkeyLogin(a), passkeyLogin(b)]);
      expect(answers.map((r) => r.status).sort()).toEqual([201, 401]);
    });

    it('a challenge of a registration ceremony, or never handed out', async () => {
      const h = await withPasskey();
      const registration = await creationOptions(await loginOf(h.user));
      await expectRefused(h.user.id, async () =>
        passkeyLogin(h.authn.get(await requestOptions(), { origin, challenge: registration.challenge })),
      );
      await expectRefused(h.user.id, async () =>
        passkeyLogin(h.authn.get(await requestOptions(), { origin, challenge: 'bm90LWEtY2hhbGxlbmdl' })),
      );
      expect(await refusalReasons(h.user.id)).toEqual(['unknown_challenge', 'unknown_challenge']);
      await signedIn(h.authn);
      // the registration's challenge is still the registration's
      await postRegistration(
        await loginOf(h.user),
        new SoftAuthenticator().create(registration, { origin }),
      ).expect(201);
    });

    it('an expired challenge (older than 5 minutes)', async () => {
      const h = await withPasskey();
      const fresh = await requestOptions();
      clock.advance(CEREMONY_MS - 5000);
      await passkeyLogin(h.authn.get(fresh, { origin })).expect(201);
      const options = await requestOptions();
      clock.advance(CEREMONY_MS + 1000);
      await expectRefused(h.user.id, () => passkeyLogin(h.authn.get(options, { origin })));
      expect(await refusalReasons(h.user.id)).toEqual(['unknown_challenge']);
      await signedIn(h.authn);
    });

    it('a challenge bound to a temporary token used without it, and one of a passkey sign-in used with one', async () => {
      const h = await withPasskey();
      const { temp_token } = await passwordSignIn(h.user.email);
      const bound = await assertion(h.authn, { temp: temp_token });
      await expectRefused(h.user.id, () => passkeyLogin(bound));
      const unbound = await assertion(h.authn);
      await expectRefused(h.user.id, () => passkeyLogin(unbound, { temp: temp_token }));
      const scoped = await assertion(h.authn, { email: h.user.email });
      await expectRefused(h.user.id, () => passkeyLogin(scoped, { temp: temp_token }));
      expect(await refusalReasons(h.user.id)).toEqual(Array(3).fill('unknown_challenge'));
      // the temporary token is still live, and completes with its own challenge
      await signedIn(h.authn, { temp: temp_token });
    });

    it('another person’s temporary token', async () => {
      const a = await withPasskey();
      const b = await withPasskey();
      const tempA = (await passwordSignIn(a.user.email)).temp_token;
      const tempB = (await passwordSignIn(b.user.email)).temp_token;
      // B's options, answered by A's passkey
      const optionsB = await requestOptions({ temp: tempB });
      await expectRefused([a.user.id, b.user.id], () =>
        passkeyLogin(a.authn.get(optionsB, { origin, credentialId: a.credentialId }), { temp: tempB }),
      );
      // A's own ceremony, sent with B's temporary token
      const ownA = await assertion(a.authn, { temp: tempA });
      await expectRefused([a.user.id, b.user.id], () => passkeyLogin(ownA, { temp: tempB }));
      expect(await refusalReasons(a.user.id)).toEqual(['another_account', 'unknown_challenge']);
      // both still complete as they should
      await signedIn(a.authn, { temp: tempA });
      await signedIn(b.authn, { temp: tempB });
    });

    it('a login token posing as a temporary token', async () => {
      const h = await withPasskey();
      const { token } = await tokenFor(t, h.user);
      await expectRefused(h.user.id, () => t.http.post(OPTIONS).set(temp(token)).send({}), null);
      const response = await assertion(h.authn);
      await expectRefused(h.user.id, () => passkeyLogin(response, { temp: token }), null);
      // nor as a bearer token beside one
      const { temp_token } = await passwordSignIn(h.user.email);
      await expectRefused(
        h.user.id,
        () => t.http.post(OPTIONS).set(temp(temp_token)).set(bearer(token)).send({}),
        null,
      );
    });

    it('another account’s passkey answering options for an email, with or without passkeys of its own', async () => {
      const a = await withPasskey();
      const b = await withPasskey();
      const bare = await createUser(t);
      for (const email of [a.user.email, bare.email]) {
        const options = await requestOptions({ email });
        await expectRefused([a.user.id, b.user.id, bare.id], () =>
          passkeyLogin(b.authn.get(options, { origin, credentialId: b.credentialId })),
        );
      }
      const [failure] = await auditOf(b.user.id, 'signin.failure');
      expect(failure.details).toMatchObject({ factor: 'webauthn', reason: 'another_account' });
      await signedIn(a.authn, { email: a.user.email });
    });

    it('usernameless: another account’s user handle, or none', async () => {
      const a = await withPasskey();
      const b = await withPasskey();
      await expectRefused([a.user.id, b.user.id], () =>
        signInWith(a.authn, { get: { userHandle: b.userHandle } }),
      );
      await expectRefused(a.user.id, () => signInWith(a.authn, { get: { userHandle: null } }));
      const failures = await auditOf(a.user.id, 'signin.failure');
      expect(failures.map((f) => f.details.reason)).toEqual(['user_handle', 'user_handle']);
      // email-scoped, a discoverable passkey may leave its handle out
      await signedIn(a.authn, { email: a.user.email, get: { userHandle: null } });
    });

    it('a removed passkey', async () => {
      const h = await withPasskey();
      await t.http
        .delete(`${MINE}${h.passkey.id}/`)
        .set(await loginOf(h.user))
        .expect(204);
      await expectRefused(h.user.id, () => signInWith(h.authn));
      await expectRefused(h.user.id, () => signInWith(h.authn, { get: { credentialId: h.credentialId } }));
    });

    it('a deactivated user’s passkey', async () => {
      const h = await withPasskey();
      await t.ds.getRepository(UserEntity).update({ id: h.user.id }, { status: 'INACTIVE' });
      await expectRefused(h.user.id, () => signInWith(h.authn));
      const [failure] = await auditOf(h.user.id, 'signin.failure');
      expect(failure.details).toMatchObject({ factor: 'webauthn', reason: 'inactive' });
    });

    it('a signature counter that went back (a cloned authenticator): flagged, mailed, refused from then on', async () => {
      const h = await withPasskey();
      const copy = h.authn.clone();
      await signedIn(copy);
      // the original's counter is now no higher than the last one seen
      await expectRefused(h.user.id, () => signInWith(h.authn));
      const auth = await loginOf(h.user);
      const [listed] = (await listMine(auth)).objects;
      expect(listed.flagged_at).toEqual(expect.any(String));
      const [flagged] = await auditOf(h.user.id, 'passkey.flagged');
      expect(flagged).toMatchObject({ actor_user_id: h.user.id, outcome: 'failure' });
      expect(flagged.details).toMatchObject({ reason: 'counter_went_back' });
      expect(await mailKinds(h.user.email)).toContain('passkey_flagged');
      expect(await mailedText(t, h.user.email)).toContain('can no longer sign you in');
      expect(webauthnEvents(h.user.id).map((e) => e.operation)).toEqual(['create', 'use', 'update']);
      // even a correct, higher counter is refused now, by either copy
      await expectRefused(h.user.id, () => signInWith(copy));
      await expectRefused(h.user.id, () => signInWith(h.authn, { get: { counter: 1000 } }));
      const reasons = (await auditOf(h.user.id, 'signin.failure')).map((f) => f.details.reason);
      expect(reasons.slice(-2)).toEqual(['flagged', 'flagged']);
      // and it is no longer offered: the account's options look like those of an account without passkeys
      const offered = (await requestOptions({ email: h.user.email })).allowCredentials!;
      expect(offered).toHaveLength(1);
      expect(offered[0].id).not.toBe(h.credentialId);
      // a password sign-in still owes the factor; the flagged passkey cannot pass it
      const { temp_token } = await passwordSignIn(h.user.email);
      await expectRefused(h.user.id, () =>
        requestOptions({ temp: temp_token }).then((o) =>
          passkeyLogin(copy.get(o, { origin, credentialId: h.credentialId }), { temp: temp_token }),
        ),
      );
    });
  });

  // ---- the guessing defence ------------------------------------------------------------------------------

  it(`guessing defence: ${LOCKOUT_THRESHOLD} bad signatures lock the passkey factor; a good one is then refused`, async () => {
    const h = await withPasskey();
    for (let i = 0; i < LOCKOUT_THRESHOLD; i++)
      await expectRefused(h.user.id, () => signInWith(h.authn, { get: { tamperSignature: true } }));
    const attempts = await t.ds
      .getRepository(LoginAttemptEntity)
      .findOneBy({ user_id: h.user.id, factor: 'webauthn' });
    expect(attempts).toMatchObject({ failures: LOCKOUT_THRESHOLD, locked_until: expect.any(Date) });
    // locked: a valid assertion is refused alike, without being verified
    await expectRefused(h.user.id, () => signInWith(h.authn));
    // the second step of a password sign-in as well
    const { temp_token } = await passwordSignIn(h.user.email);
    await expectRefused(h.user.id, () => signInWith(h.authn, { temp: temp_token }));
    const failures = (await auditOf(h.user.id, 'signin.failure')).map((f) => f.details);
    expect(failures.filter((d) => d.reason === 'wrong')).toHaveLength(LOCKOUT_THRESHOLD);
    expect(failures.every((d) => d.factor === 'webauthn')).toBe(true);
    expect(failures.filter((d) => d.reason === 'locked')).toHaveLength(2);
    expect(await auditOf(h.user.id, 'signin.locked')).toHaveLength(1);
    expect(await mailedText(t, h.user.email)).toContain('wrong passkey');
    // the password factor is not locked by it
    expect((await passwordSignIn(h.user.email)).temp_token).toEqual(expect.any(String));
    // once the lock is over, the passkey signs in again
    clock.advance(LOCK_BASE_MS + 1000);
    await signedIn(h.authn);
  });

  // ---- administrators ------------------------------------------------------------------------------------

  describe('administrators', () => {
    let domain: SystemDomainEntity;
    let elsewhere: SystemDomainEntity;
    let adminAuth: Record<string, string>;

    beforeAll(async () => {
      domain = await createDomain(t);
      elsewhere = await createDomain(t);
      adminAuth = await loginOf(await createUser(t, { domainId: domain.id, isAdmin: true }));
    });

    it('an administrator of the member’s only domain lists and removes a passkey; the person is told', async () => {
      const h = await withPasskey(await createUser(t, { domainId: domain.id }));
      const listed = await t.http.get(ofUser(h.user.id)).set(adminAuth).expect(200);
      expect(listed.body).toMatchObject({ total: 1 });
      expect(listed.body.objects[0]).toMatchObject({ id: h.passkey.id, name: 'Laptop' });
      await t.http
        .delete(`${ofUser(h.user.id)}${randomUUID()}/`)
        .set(adminAuth)
        .expect(404);
      await t.http
        .delete(`${ofUser(h.user.id)}${h.passkey.id}/`)
        .set(adminAuth)
        .expect(204);
      expect((await t.http.get(ofUser(h.user.id)).set(adminAuth).expect(200)).body.total).toBe(0);
      expect(await mailKinds(h.user.email)).toEqual(['passkey_added', 'passkey_removed']);
      expect(await mailedText(t, h.user.email)).toContain('was removed from');
      await expectRefused(h.user.id, () => signInWith(h.authn));
      // a user of another domain is not there to see
      const stranger = await withPasskey(await createUser(t, { domainId: elsewhere.id }));
      await t.http.get(ofUser(stranger.user.id)).set(adminAuth).expect(404);
      await t.http
        .delete(`${ofUser(stranger.user.id)}${stranger.passkey.id}/`)
        .set(adminAuth)
        .expect(404);
    });

    it('a member without the roles, or with them but not an administrator: 403', async () => {
      const h = await withPasskey(await createUser(t, { domainId: domain.id }));
      const member = await loginOf(await createUser(t, { domainId: domain.id }));
      await t.http.get(ofUser(h.user.id)).set(member).expect(403);
      await t.http
        .delete(`${ofUser(h.user.id)}${h.passkey.id}/`)
        .set(member)
        .expect(403);
      const manager = await loginOf(
        await createUser(t, { domainId: domain.id, roles: ['can_read_users', 'can_write_users'] }),
      );
      await t.http.get(ofUser(h.user.id)).set(manager).expect(200);
      const res = await t.http
        .delete(`${ofUser(h.user.id)}${h.passkey.id}/`)
        .set(manager)
        .expect(403);
      expect(res.headers['x-error-code']).toBe('passkeys.ADMIN_ONLY');
      expect((await t.http.get(ofUser(h.user.id)).set(adminAuth).expect(200)).body.total).toBe(1);
    });

    it('a shared account (two domains): a domain administrator may not remove its passkey, a super administrator may', async () => {
      const shared = await withPasskey(await createUser(t, { domainId: domain.id, alsoIn: [t.domainId] }));
      await t.http.get(ofUser(shared.user.id)).set(adminAuth).expect(200);
      const res = await t.http
        .delete(`${ofUser(shared.user.id)}${shared.passkey.id}/`)
        .set(adminAuth)
        .expect(403);
      expect(res.headers['x-error-code']).toBe('passkeys.SHARED_ACCOUNT');
      const superAdmin = await loginOf(t.admin);
      await t.http
        .delete(`${ofUser(shared.user.id)}${shared.passkey.id}/`)
        .set(superAdmin)
        .expect(204);
      expect(await mailKinds(shared.user.email)).toEqual(['passkey_added', 'passkey_removed']);
      const [removed] = await auditOf(shared.user.id, 'passkey.removed');
      expect(removed).toMatchObject({ actor_user_id: t.admin.id, system_domain_id: t.domainId });
    });

    it('a super administrator’s passkey: only a super administrator may remove it', async () => {
      const top = await withPasskey(await createUser(t, { domainId: domain.id, isSuperAdmin: true }));
      const res = await t.http
        .delete(`${ofUser(top.user.id)}${top.passkey.id}/`)
        .set(adminAuth)
        .expect(403);
      expect(res.headers['x-error-code']).toBe('passkeys.SUPER_ADMIN_RANK');
      // a super administrator signed in to that domain may
      const peer = await loginOf(await createUser(t, { domainId: domain.id, isSuperAdmin: true }));
      await t.http
        .delete(`${ofUser(top.user.id)}${top.passkey.id}/`)
        .set(peer)
        .expect(204);
    });
  });

  // ---- the record ----------------------------------------------------------------------------------------

  it('audit records, webhook events and mails of registering, renaming, using and removing a passkey', async () => {
    const h = await withPasskey();
    const auth = await loginOf(h.user);
    await t.http.patch(`${MINE}${h.passkey.id}/`).set(auth).send({ name: 'Phone' }).expect(200);
    const session = await signedIn(h.authn);
    await t.http.delete(`${MINE}${h.passkey.id}/`).set(auth).expect(204);

    const actions = ['passkey.registered', 'passkey.renamed', 'passkey.used', 'passkey.removed'];
    for (const [i, action] of actions.entries()) {
      const rows = await auditOf(h.user.id, action);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actor_user_id: h.user.id,
        system_domain_id: t.domainId,
        target_type: 'user',
        outcome: 'success',
      });
      expect(rows[0].details.name ?? null).toBe(i === 0 ? 'Laptop' : i === 2 ? null : 'Phone');
    }
    const [success] = await auditOf(h.user.id, 'signin.success');
    expect(success.details).toMatchObject({ method: 'passkey', second_factor: true });
    expect(success.details.credential_id).toBe(session.body.id);

    const events = webauthnEvents(h.user.id);
    expect(events.map((e) => e.operation)).toEqual(['create', 'update', 'use', 'delete']);
    expect(events[0].data).toEqual({
      passkey: expect.objectContaining({ id: h.passkey.id, name: 'Laptop' }),
    });
    expect(events[1].data).toEqual({ passkey: expect.objectContaining({ id: h.passkey.id, name: 'Phone' }) });
    expect(events[2].data).toMatchObject({ passkey_id: h.passkey.id, second_factor: false });
    expect(events[3].data).toEqual({ passkey: expect.objectContaining({ id: h.passkey.id }) });
    // none carries the credential id or the key
    expect(JSON.stringify(events)).not.toContain(h.credentialId);

    expect(await mailKinds(h.user.email)).toEqual(['passkey_added', 'passkey_removed']);
  });

  it('the audit records of a passkey name it (webauthn_id)', async () => {
    const h = await withPasskey();
    await signedIn(h.authn);
    // the counter seen again: flagged as cloned
    expect((await signInWith(h.authn, { get: { counter: 1 } })).status).toBe(401);
    await t.http
      .delete(`${MINE}${h.passkey.id}/`)
      .set(await loginOf(h.user))
      .expect(204);
    const rows = await t.ds.getRepository(AuditEventEntity).find({ where: { target_id: h.user.id } });
    const named = (action: string) =>
      rows.filter((r) => r.action === action).map((r) => r.details.webauthn_id ?? null);
    // which passkey was registered, used, refused, flagged, removed: the trail has to say
    expect(named('passkey.registered')).toEqual([h.passkey.id]);
    expect(named('passkey.used')).toEqual([h.passkey.id]);
    expect(named('passkey.flagged')).toEqual([h.passkey.id]);
    expect(named('passkey.removed')).toEqual([h.passkey.id]);
  });

  // ---- domains' second-factor policy ---------------------------------------------------------------------

  describe('a domain’s second-factor policy', () => {
    async function domainWithPolicy(methods: string[]): Promise<SystemDomainEntity> {
      const domain = await createDomain(t);
      const admin = await loginOf(await createUser(t, { domainId: domain.id, isAdmin: true }));
      await t.http.patch(POLICY).set(admin).send({ mfa_required: true, mfa_methods: methods }).expect(200);
      return domain;
    }

    it('requiring TOTP only: a passkey sign-in gets no token there but a temporary one, and cannot pass it', async () => {
      const domain = await domainWithPolicy(['TOTP']);
      const h = await withPasskey(await createUser(t, { alsoIn: [domain.id] }));
      const res = await signedIn(h.authn);
      expect(res.body.temp_token).toEqual(expect.any(String));
      const byId = Object.fromEntries(
        res.body.auth_system_domains.map((d: { system_domain_id: string }) => [d.system_domain_id, d]),
      );
      expect(byId[domain.id]).toMatchObject({ token: null, mfa_required: true, mfa_methods: ['TOTP'] });
      // the home domain counts the passkey
      expect(byId[t.domainId]).toMatchObject({ token: expect.any(String), mfa_required: false });
      expect(res.body.token).toBe(byId[t.domainId].token);
      // only that domain: a temporary token only
      const only = await signedIn(h.authn, { domainId: domain.id });
      expect(only.body).toMatchObject({ token: null, temp_token: expect.any(String) });
      // the passkey is not that domain's second factor
      const before = await tokenCount(h.user.id);
      const refused = await signInWith(h.authn, { temp: only.body.temp_token, domainId: domain.id });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: REFUSED });
      expect(await tokenCount(h.user.id)).toBe(before);
      const reasons = (await auditOf(h.user.id, 'signin.failure')).map((f) => f.details.reason);
      expect(reasons).toEqual(['domain_policy']);
      // the same temporary token still passes the home domain's factor with the passkey
      const home = await signedIn(h.authn, { temp: only.body.temp_token, domainId: t.domainId });
      expect(home.body).toMatchObject({ system_domain_id: t.domainId, is_mfa_authenticated: true });
    });

    it('requiring WEBAUTHN: the passkey satisfies it, alone or as the second step', async () => {
      const domain = await domainWithPolicy(['WEBAUTHN']);
      const h = await withPasskey(await createUser(t, { domainId: domain.id }));
      const alone = await signedIn(h.authn);
      expect(alone.body).toMatchObject({
        token: expect.any(String),
        system_domain_id: domain.id,
        is_mfa_authenticated: true,
      });
      expect(alone.body.temp_token).toBeUndefined();
      const { temp_token } = await passwordSignIn(h.user.email);
      const second = await signedIn(h.authn, { temp: temp_token, get: { userVerified: false } });
      expect(second.body).toMatchObject({ system_domain_id: domain.id, is_mfa_authenticated: true });
    });
  });
});
