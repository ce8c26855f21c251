import { jest } from '@jest/globals';
import { Secret, TOTP } from 'otpauth';
import { Clock } from '../../src/base/common/clock.js';
import { WebhookEventsService } from '../../src/delivery/events/webhook-events.service.js';
import type { SystemDomainEntity } from '../../src/base/model/system-domain.entity.js';
import { SystemDomainEntity as DomainRepo } from '../../src/base/model/system-domain.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedSecret, mailedText } from '../utils/mail.js';

const LOGIN = '/API/auth/v1/auth/simple/login/';
const MULTI = '/API/auth/v1/auth/multidomain/login/';
const GENERATE = '/API/auth/v1/auth/otp/generate/';
const CURRENT_GENERATE = '/API/auth/v1/auth/current/otp/generate/';
const VALIDATE = '/API/auth/v1/auth/token/';
const TOTP_CONFIGURE = '/API/users/v1/users/current/totp/configure/';
const TOTP_VALIDATE = '/API/users/v1/users/current/totp/validate_configuration/';
const OTP_CONFIGURE = '/API/users/v1/users/current/otp/configure/';
const POLICY = '/API/auth/v1/system_domains/current/mfa/';

const temp = (token: string) => ({ 'Temp-Auth-Token': token });

describe('second factors and the temporary-token multi-domain sign-in', () => {
  let t: TestApp;
  let clock: Clock;
  let totpDomain: SystemDomainEntity;
  let mailDomain: SystemDomainEntity;

  /** The code of `secret` at the service's now, `steps` time steps away. */
  const codeOf = (secret: string, steps = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret) }).generate({
      timestamp: clock.now().getTime() + steps * 30_000,
    });
  /** Waits into the next time step, so a fresh code differs from the last one used. */
  const nextStep = () => clock.advance(30_000);

  const simpleLogin = async (email: string) =>
    (await t.http.post(LOGIN).send({ email, password: DEFAULT_PASSWORD }).expect(201)).body;
  /** When the account last proved its address (OpenID Connect email_verified). */
  const verifiedAt = async (id: string) =>
    (await t.ds.getRepository(UserEntity).findOneByOrFail({ id })).email_verified_at;

  /** Enrols TOTP for `user` through the API; answers the seed and the recovery codes. */
  async function enrolTotp(user: UserEntity): Promise<{ secret: string; recovery: string[] }> {
    const login = bearer((await tokenFor(t, user)).token);
    const started = await t.http.post(TOTP_CONFIGURE).set(login).expect(201);
    const confirmed = await t.http
      .post(TOTP_VALIDATE)
      .set(login)
      .send({ otp: codeOf(started.body.secret) })
      .expect(200);
    nextStep();
    return { secret: started.body.secret, recovery: confirmed.body.recovery_codes };
  }

  /** The factor-change events recorded for a user (what webhooks would be sent), in order. */
  let recorded: {
    objectId: string | null;
    realm: string | null;
    eventType: string;
    data: Record<string, unknown>;
  }[];
  const eventsOf = (userId: string) =>
    recorded
      .filter((e) => e.objectId === userId && e.realm === 'otp_configuration' && e.eventType === 'users')
      .map((e) => e.data.message_type);

  beforeAll(async () => {
    t = await createTestApp();
    clock = t.get(Clock);
    recorded = [];
    const events = t.get(WebhookEventsService);
    const record = events.record.bind(events);
    jest.spyOn(events, 'record').mockImplementation(async (em, event) => {
      recorded.push(event);
      return record(em, event);
    });
    totpDomain = await createDomain(t, { name: 'TOTP only', mfa_required: true, mfa_methods: ['TOTP'] });
    mailDomain = await createDomain(t, { name: 'Mail codes', mfa_required: true, mfa_methods: ['MAIL_2SV'] });
  });
  // time only moves forward here: a step already used stays used
  afterAll(async () => {
    clock.reset();
    await t.close();
  });

  describe('TOTP enrolment', () => {
    it('answers the seed, an otpauth:// URI and a QR code; inactive until a first code confirms it', async () => {
      const user = await createUser(t);
      const login = bearer((await tokenFor(t, user)).token);
      const res = await t.http.post(TOTP_CONFIGURE).set(login).expect(201);
      expect(res.body.secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(res.body.uri).toMatch(/^otpauth:\/\/totp\/Portcullis:.*secret=/);
      expect(res.body.uri).toContain(res.body.secret);
      expect(res.body.qr_code).toMatch(/^data:image\/png;base64,/);
      // not active yet: the sign-in still gives the token directly
      const before = await simpleLogin(user.email);
      expect(before.token).toEqual(expect.any(String));
      expect(before.temp_token).toBeUndefined();
      expect((await t.http.get(OTP_CONFIGURE).set(login).expect(200)).body).toEqual({
        mail_2sv_enabled: false,
        totp_enabled: false,
        recovery_codes_remaining: 0,
        mfa_methods_configured: [],
        mfa_required: false,
        mfa_methods: ['TOTP', 'MAIL_2SV', 'WEBAUTHN'],
      });
      // the seed is sealed at rest
      const [row] = await t.ds.query('SELECT totp_secret FROM user_mfa WHERE user_id = $1', [user.id]);
      expect(row.totp_secret).not.toContain(res.body.secret);

      // a wrong code does not confirm it
      const wrong = String((Number(codeOf(res.body.secret)) + 1) % 1_000_000).padStart(6, '0');
      await t.http.post(TOTP_VALIDATE).set(login).send({ otp: wrong }).expect(400);
      await t.http.post(TOTP_VALIDATE).set(login).send({ otp: 'not a code' }).expect(400);
      const ok = await t.http
        .post(TOTP_VALIDATE)
        .set(login)
        .send({ otp: codeOf(res.body.secret) })
        .expect(200);
      expect(ok.body.recovery_codes).toHaveLength(10);
      expect(new Set(ok.body.recovery_codes).size).toBe(10);
      // confirmed once: a second confirmation and a new enrolment are refused
      await t.http
        .post(TOTP_VALIDATE)
        .set(login)
        .send({ otp: codeOf(res.body.secret) })
        .expect(400);
      await t.http.post(TOTP_CONFIGURE).set(login).expect(409);
      expect((await t.http.get(OTP_CONFIGURE).set(login).expect(200)).body).toMatchObject({
        totp_enabled: true,
        recovery_codes_remaining: 10,
        mfa_methods_configured: ['TOTP'],
        mfa_required: true,
      });
      // the user is told, and webhooks get the event
      expect(await mailedText(t, user.email)).toContain('authenticator app was added');
      expect(eventsOf(user.id)).toEqual(['totp_enabled']);
      // the recovery codes are stored hashed
      const [codes] = await t.ds.query(
        'SELECT recovery_code_hashes::text AS h FROM user_mfa WHERE user_id = $1',
        [user.id],
      );
      for (const c of ok.body.recovery_codes as string[]) expect(codes.h).not.toContain(c.replace('-', ''));
    });

    it('a seed in enrolment cannot be confirmed with another user’s code', async () => {
      const a = await createUser(t);
      const b = await createUser(t);
      const loginA = bearer((await tokenFor(t, a)).token);
      const loginB = bearer((await tokenFor(t, b)).token);
      const seedA = (await t.http.post(TOTP_CONFIGURE).set(loginA).expect(201)).body.secret;
      await t.http.post(TOTP_CONFIGURE).set(loginB).expect(201);
      await t.http
        .post(TOTP_VALIDATE)
        .set(loginB)
        .send({ otp: codeOf(seedA) })
        .expect(400);
    });

    it('removal needs a current code (or a recovery code); then sign-in asks for nothing again', async () => {
      const user = await createUser(t);
      const { secret, recovery } = await enrolTotp(user);
      const login = bearer((await tokenFor(t, user)).token);
      await t.http.delete(TOTP_CONFIGURE).set(login).send({}).expect(400);
      await t.http.delete(TOTP_CONFIGURE).set(login).send({ otp: '000000' }).expect(400);
      await t.http
        .delete(TOTP_CONFIGURE)
        .set(login)
        .send({ otp: 'ffffffff-ffffffff', otp_type: 'RECOVERY' })
        .expect(400);
      await t.http
        .delete(TOTP_CONFIGURE)
        .set(login)
        .send({ otp: codeOf(secret) })
        .expect(204);
      expect(await mailedText(t, user.email)).toContain('authenticator app was removed');
      expect((await simpleLogin(user.email)).token).toEqual(expect.any(String));
      // the old recovery codes went with it
      const again = await enrolTotp(user);
      await t.http
        .delete(TOTP_CONFIGURE)
        .set(login)
        .send({ otp: recovery[0], otp_type: 'RECOVERY' })
        .expect(400);
      await t.http
        .delete(TOTP_CONFIGURE)
        .set(login)
        .send({ otp: again.recovery[0], otp_type: 'RECOVERY' })
        .expect(204);
    });

    it('enrolment routes refuse the temporary token', async () => {
      const user = await createUser(t, { alsoIn: [mailDomain.id] });
      const body = await simpleLogin(user.email);
      await t.http.post(TOTP_CONFIGURE).set(temp(body.temp_token)).expect(401);
      await t.http.post(TOTP_CONFIGURE).set(bearer(body.temp_token)).expect(401);
    });
  });

  describe('a user in two domains, one of which requires TOTP', () => {
    let user: UserEntity;
    let secret: string;
    let recovery: string[];

    beforeAll(async () => {
      user = await createUser(t, { alsoIn: [totpDomain.id] });
      ({ secret, recovery } = await enrolTotp(user));
    });

    it('simple login → no domain token, a temporary token, and per-domain MFA fields', async () => {
      const body = await simpleLogin(user.email);
      expect(body.token).toBeNull();
      expect(body.temp_token).toEqual(expect.any(String));
      expect(body.kind).toBe('TEMP');
      const items = body.auth_system_domains as Record<string, unknown>[];
      expect(items).toHaveLength(2);
      const byId = Object.fromEntries(items.map((i) => [i.system_domain_id, i]));
      expect(byId[totpDomain.id]).toMatchObject({
        token: null,
        mfa_required: true,
        mfa_methods: ['TOTP'],
        mfa_required_configured: true,
        mfa_methods_configured: ['TOTP'],
      });
      // a confirmed factor is always asked for, whatever the domain's policy
      expect(byId[t.domainId]).toMatchObject({ token: null, mfa_required: true });
      // the temporary token is short-lived
      const lifetime = new Date(body.expires).getTime() - clock.now().getTime();
      expect(lifetime).toBeLessThanOrEqual(300_000);
      expect(lifetime).toBeGreaterThan(250_000);
    });

    it('multidomain login with a current TOTP code → the domain’s Token with is_mfa_authenticated', async () => {
      const { temp_token } = await simpleLogin(user.email);
      const res = await t.http
        .post(MULTI)
        .set(temp(temp_token))
        .send({ email: user.email, system_domain_id: totpDomain.id, otp: codeOf(secret), otp_type: 'TOTP' })
        .expect(201);
      expect(res.body).toMatchObject({
        token: expect.any(String),
        system_domain_id: totpDomain.id,
        user_id: user.id,
        kind: 'LOGIN',
        is_mfa_authenticated: true,
      });
      const check = await t.http.get(VALIDATE).set(bearer(res.body.token)).expect(200);
      expect(check.body).toMatchObject({ is_mfa_authenticated: true, system_domain_id: totpDomain.id });
      // the temporary token is used up
      await t.http
        .post(MULTI)
        .set(temp(temp_token))
        .send({ email: user.email, system_domain_id: t.domainId, otp: codeOf(secret, 1), otp_type: 'TOTP' })
        .expect(401);
    });

    it('a TOTP code is accepted once: replay within its window is refused', async () => {
      nextStep();
      const code = codeOf(secret);
      const first = (await simpleLogin(user.email)).temp_token;
      await t.http
        .post(MULTI)
        .set(temp(first))
        .send({ email: user.email, system_domain_id: t.domainId, otp: code })
        .expect(201);
      const second = (await simpleLogin(user.email)).temp_token;
      await t.http
        .post(MULTI)
        .set(temp(second))
        .send({ email: user.email, system_domain_id: t.domainId, otp: code })
        .expect(401);
      // an older step than the last used one neither
      await t.http
        .post(MULTI)
        .set(temp(second))
        .send({ email: user.email, system_domain_id: t.domainId, otp: codeOf(secret, -1) })
        .expect(401);
      // ±1 step of drift: the next step's code is accepted
      await t.http
        .post(MULTI)
        .set(temp(second))
        .send({ email: user.email, system_domain_id: t.domainId, otp: codeOf(secret, 1) })
        .expect(201);
      nextStep();
      nextStep();
    });

    it('wrong codes, another email, a foreign domain, a method the domain does not accept → 401', async () => {
      nextStep();
      const { temp_token } = await simpleLogin(user.email);
      const other = await createUser(t);
      const send = (b: Record<string, unknown>) => t.http.post(MULTI).set(temp(temp_token)).send(b);
      const good = codeOf(secret);
      const wrong = String((Number(good) + 1) % 1_000_000).padStart(6, '0');
      await send({ email: user.email, system_domain_id: totpDomain.id, otp: wrong }).expect(401);
      await send({ email: user.email, system_domain_id: totpDomain.id, otp: codeOf(secret, 3) }).expect(401);
      await send({ email: user.email, system_domain_id: totpDomain.id, otp: null }).expect(401);
      await send({ email: other.email, system_domain_id: totpDomain.id, otp: good }).expect(401);
      await send({ email: user.email, system_domain_id: mailDomain.id, otp: good }).expect(401);
      await send({
        email: user.email,
        system_domain_id: totpDomain.id,
        otp: good,
        otp_type: 'MAIL_2SV',
      }).expect(401);
      await send({ email: user.email, system_domain_id: totpDomain.id, otp: good, otp_type: 'SMS' }).expect(
        400,
      );
      await send({ email: 'not-an-email', system_domain_id: totpDomain.id, otp: good }).expect(400);
      // the domain allows TOTP only: no mailed code for it
      await t.http
        .post(GENERATE)
        .set(temp(temp_token))
        .send({ email: user.email, system_domain_id: totpDomain.id })
        .expect(401);
      // malformed codes are refused alike but are not guesses: more of them than the lock threshold lock nothing
      for (const otp of ['abc', '12345', '1234567', ' ', '１２３４５６', '123 456'])
        await send({ email: user.email, system_domain_id: totpDomain.id, otp }).expect(401);
      // the right code still works after those
      await send({ email: user.email, system_domain_id: totpDomain.id, otp: good }).expect(201);
      nextStep();
    });

    it('one code, sent at once with several temporary tokens: exactly one sign-in', async () => {
      nextStep();
      const temps = await Promise.all(
        [1, 2, 3, 4].map(async () => (await simpleLogin(user.email)).temp_token),
      );
      const code = codeOf(secret);
      const answers = await Promise.all(
        temps.map((tt: string) =>
          t.http
            .post(MULTI)
            .set(temp(tt))
            .send({ email: user.email, system_domain_id: t.domainId, otp: code }),
        ),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([201, 401, 401, 401]);
      nextStep();
    });

    it('a recovery code stands in for TOTP, once', async () => {
      const first = (await simpleLogin(user.email)).temp_token;
      const res = await t.http
        .post(MULTI)
        .set(temp(first))
        .send({ email: user.email, system_domain_id: totpDomain.id, otp: recovery[1], otp_type: 'RECOVERY' })
        .expect(201);
      expect(res.body.is_mfa_authenticated).toBe(true);
      const second = (await simpleLogin(user.email)).temp_token;
      await t.http
        .post(MULTI)
        .set(temp(second))
        .send({ email: user.email, system_domain_id: totpDomain.id, otp: recovery[1], otp_type: 'RECOVERY' })
        .expect(401);
      // another user's recovery code is not this user's
      const other = await createUser(t, { alsoIn: [totpDomain.id] });
      const otherCodes = await enrolTotp(other);
      await t.http
        .post(MULTI)
        .set(temp(second))
        .send({
          email: user.email,
          system_domain_id: totpDomain.id,
          otp: otherCodes.recovery[0],
          otp_type: 'RECOVERY',
        })
        .expect(401);
    });

    it('the temporary token expires', async () => {
      nextStep();
      const { temp_token } = await simpleLogin(user.email);
      clock.advance(301_000);
      await t.http
        .post(MULTI)
        .set(temp(temp_token))
        .send({ email: user.email, system_domain_id: totpDomain.id, otp: codeOf(secret) })
        .expect(401);
    });

    it('the temporary token opens nothing else, and only in Temp-Auth-Token', async () => {
      nextStep();
      const { temp_token } = await simpleLogin(user.email);
      await t.http.get(VALIDATE).set(temp(temp_token)).expect(401);
      await t.http.get(VALIDATE).set(bearer(temp_token)).expect(401);
      await t.http.get('/API/users/v1/users/current/').set(temp(temp_token)).expect(401);
      await t.http.post(CURRENT_GENERATE).set(temp(temp_token)).expect(401);
      await t.http.get(OTP_CONFIGURE).set(temp(temp_token)).expect(401);
      await t.http
        .post(MULTI)
        .set(bearer(temp_token))
        .send({ email: user.email, system_domain_id: totpDomain.id, otp: codeOf(secret) })
        .expect(401);
      await t.http
        .post(MULTI)
        .set({ 'Auth-Token': temp_token })
        .send({ email: user.email, system_domain_id: totpDomain.id, otp: codeOf(secret) })
        .expect(401);
      // a login token cannot pose as a temporary one
      const login = (await tokenFor(t, user)).token;
      await t.http
        .post(MULTI)
        .set(temp(login))
        .send({ email: user.email, system_domain_id: totpDomain.id, otp: codeOf(secret) })
        .expect(401);
      await t.http.post(MULTI).send({ email: user.email, system_domain_id: totpDomain.id }).expect(401);
      // and it still works where it belongs
      await t.http
        .post(MULTI)
        .set(temp(temp_token))
        .send({ email: user.email, system_domain_id: totpDomain.id, otp: codeOf(secret) })
        .expect(201);
    });
  });

  it('guessing: after LOCKOUT_THRESHOLD wrong TOTP codes even the right one is refused (the guessing defence)', async () => {
    const user = await createUser(t);
    const { secret } = await enrolTotp(user);
    const { temp_token } = await simpleLogin(user.email);
    const send = (otp: string) =>
      t.http.post(MULTI).set(temp(temp_token)).send({ email: user.email, system_domain_id: t.domainId, otp });
    const good = codeOf(secret);
    const wrong = (i: number) => String((Number(good) + i) % 1_000_000).padStart(6, '0');
    for (let i = 1; i <= t.config.lockout.threshold; i++) await send(wrong(i)).expect(401);
    const locked = await send(good).expect(401);
    expect(locked.body).toEqual({ errors: ['Invalid email, domain or code'] });
  });

  describe('MAIL_2SV', () => {
    it('a domain that requires a factor: a mailed code completes the sign-in, once', async () => {
      const user = await createUser(t, { alsoIn: [mailDomain.id] });
      const body = await simpleLogin(user.email);
      const byId = Object.fromEntries(
        (body.auth_system_domains as { system_domain_id: string; token: string | null }[]).map((i) => [
          i.system_domain_id,
          i,
        ]),
      );
      // the home domain needs no factor for this user: its token comes directly
      expect(byId[t.domainId].token).toEqual(expect.any(String));
      expect(body.token).toBe(byId[t.domainId].token);
      expect(byId[mailDomain.id]).toMatchObject({
        token: null,
        mfa_required: true,
        mfa_methods: ['MAIL_2SV'],
      });
      expect(body.temp_token).toEqual(expect.any(String));

      const ask = await t.http
        .post(GENERATE)
        .set(temp(body.temp_token))
        .send({ email: user.email, system_domain_id: mailDomain.id })
        .expect(201);
      expect(ask.text).toBe('');
      const code = /sign-in code is (\d{6})/.exec(await mailedText(t, user.email))![1];
      // stored hashed
      const rows = await t.ds.query('SELECT code_hash FROM mail_otp_codes WHERE user_id = $1', [user.id]);
      expect(rows[0].code_hash).not.toContain(code);

      // another user's code is not this user's, and this user's is not theirs
      const other = await createUser(t, { alsoIn: [mailDomain.id] });
      const otherTemp = (await simpleLogin(other.email)).temp_token;
      await t.http
        .post(MULTI)
        .set(temp(otherTemp))
        .send({ email: other.email, system_domain_id: mailDomain.id, otp: code, otp_type: 'MAIL_2SV' })
        .expect(401);
      // a password sign-in, and a refused code, prove nothing about the mailbox
      expect(await verifiedAt(user.id)).toBeNull();
      expect(await verifiedAt(other.id)).toBeNull();

      const res = await t.http
        .post(MULTI)
        .set(temp(body.temp_token))
        .send({ email: user.email, system_domain_id: mailDomain.id, otp: code, otp_type: 'MAIL_2SV' })
        .expect(201);
      expect(res.body).toMatchObject({ system_domain_id: mailDomain.id, is_mfa_authenticated: true });
      // the mailed code proved the address (the database's now(), with the sign-in)
      const proved = await verifiedAt(user.id);
      expect(proved).toBeInstanceOf(Date);
      expect(Math.abs(proved!.getTime() - Date.now())).toBeLessThan(60_000);
      // replay of the mail code is refused
      const again = (await simpleLogin(user.email)).temp_token;
      await t.http
        .post(MULTI)
        .set(temp(again))
        .send({ email: user.email, system_domain_id: mailDomain.id, otp: code, otp_type: 'MAIL_2SV' })
        .expect(401);
    });

    it('a mailed code expires after 10 minutes, and a new one replaces the last', async () => {
      const user = await createUser(t, { alsoIn: [mailDomain.id] });
      const ask = async (tt: string) => {
        await t.http
          .post(GENERATE)
          .set(temp(tt))
          .send({ email: user.email, system_domain_id: mailDomain.id })
          .expect(201);
        return /sign-in code is (\d{6})/.exec(await mailedText(t, user.email))![1];
      };
      const tt = (await simpleLogin(user.email)).temp_token;
      const first = await ask(tt);
      const second = await ask(tt);
      const send = (otp: string, token = tt) =>
        t.http.post(MULTI).set(temp(token)).send({ email: user.email, system_domain_id: mailDomain.id, otp });
      if (first !== second) await send(first).expect(401);
      clock.advance(10 * 60_000 + 1000);
      const late = (await simpleLogin(user.email)).temp_token;
      await send(second, late).expect(401);
      expect(await verifiedAt(user.id)).toBeNull(); // replaced and expired codes prove nothing
    });

    it('turning MAIL_2SV on and off needs a mailed code; each change mails the user and records an event', async () => {
      const user = await createUser(t);
      const login = bearer((await tokenFor(t, user)).token);
      await t.http.post(OTP_CONFIGURE).set(login).send({ otp: '123456' }).expect(400);
      await t.http.post(CURRENT_GENERATE).set(login).expect(201);
      const code = /sign-in code is (\d{6})/.exec(await mailedText(t, user.email))![1];
      expect(await verifiedAt(user.id)).toBeNull(); // the wrong code proved nothing
      const on = await t.http.post(OTP_CONFIGURE).set(login).send({ otp: code }).expect(200);
      expect(on.body).toMatchObject({ mail_2sv_enabled: true, mfa_methods_configured: ['MAIL_2SV'] });
      expect(await verifiedAt(user.id)).toBeInstanceOf(Date); // the mailed code did
      expect(await mailedText(t, user.email)).toContain('Sign-in codes by mail were turned on');
      // now every sign-in asks for a code
      const body = await simpleLogin(user.email);
      expect(body.token).toBeNull();
      // the same code cannot turn it off
      await t.http.put(OTP_CONFIGURE).set(login).send({ enabled: false, otp: code }).expect(400);
      await t.http.post(CURRENT_GENERATE).set(login).expect(201);
      const code2 = /sign-in code is (\d{6})/.exec(await mailedText(t, user.email))![1];
      const off = await t.http.put(OTP_CONFIGURE).set(login).send({ enabled: false, otp: code2 }).expect(200);
      expect(off.body.mail_2sv_enabled).toBe(false);
      expect(eventsOf(user.id)).toEqual(['otp_enabled', 'otp_disabled']);
    });

    it('PUT takes the published body (otp, otp_type, mfa_required); a body saying neither on nor off is a 400', async () => {
      const user = await createUser(t);
      const login = bearer((await tokenFor(t, user)).token);
      const mailed = async () => {
        await t.http.post(CURRENT_GENERATE).set(login).expect(201);
        return /sign-in code is (\d{6})/.exec(await mailedText(t, user.email))![1];
      };
      const code = await mailed();
      // neither mfa_required nor enabled, a factor this path does not turn on, contradicting fields: 400, no change
      await t.http.put(OTP_CONFIGURE).set(login).send({ otp: code, otp_type: 'MAIL_2SV' }).expect(400);
      await t.http
        .put(OTP_CONFIGURE)
        .set(login)
        .send({ otp: code, otp_type: 'TOTP', mfa_required: true })
        .expect(400);
      await t.http
        .put(OTP_CONFIGURE)
        .set(login)
        .send({ otp: code, mfa_required: true, enabled: false })
        .expect(400);
      await t.http.put(OTP_CONFIGURE).set(login).send({ otp: code, mfa_required: 'yes' }).expect(400);
      expect((await t.http.get(OTP_CONFIGURE).set(login).expect(200)).body.mail_2sv_enabled).toBe(false);
      const on = await t.http
        .put(OTP_CONFIGURE)
        .set(login)
        .send({ otp: code, otp_type: 'MAIL_2SV', mfa_required: true })
        .expect(200);
      expect(on.body).toMatchObject({ mail_2sv_enabled: true, mfa_required: true });
      // the code was used: it cannot turn it off again
      await t.http.put(OTP_CONFIGURE).set(login).send({ otp: code, mfa_required: false }).expect(400);
      const off = await t.http
        .put(OTP_CONFIGURE)
        .set(login)
        .send({ otp: await mailed(), mfa_required: false })
        .expect(200);
      expect(off.body).toMatchObject({ mail_2sv_enabled: false, mfa_required: false });
    });
  });

  describe('domain policy', () => {
    it('administrators of the domain set mfa_required and mfa_methods; others cannot', async () => {
      const domain = await createDomain(t);
      const admin = await createUser(t, { domainId: domain.id, isAdmin: true });
      const member = await createUser(t, { domainId: domain.id });
      await t.http
        .patch(POLICY)
        .set(bearer((await tokenFor(t, member)).token))
        .send({ mfa_required: true })
        .expect(403);
      const adminLogin = bearer((await tokenFor(t, admin)).token);
      await t.http.patch(POLICY).set(adminLogin).send({ mfa_methods: [] }).expect(400);
      await t.http
        .patch(POLICY)
        .set(adminLogin)
        .send({ mfa_methods: ['SMS'] })
        .expect(400);
      const res = await t.http
        .patch(POLICY)
        .set(adminLogin)
        .send({ mfa_required: true, mfa_methods: ['MAIL_2SV'] })
        .expect(200);
      expect(res.body).toEqual({ mfa_required: true, mfa_methods: ['MAIL_2SV'] });
      // only the caller's own domain changed
      expect((await t.ds.getRepository(DomainRepo).findOneByOrFail({ id: t.domainId })).mfa_required).toBe(
        false,
      );
      const body = await simpleLogin(member.email);
      expect(body.token).toBeNull();
      expect(body.auth_system_domains[0]).toMatchObject({ mfa_required: true, mfa_methods: ['MAIL_2SV'] });
    });

    it('an accepted invitation does not sign in past a factor the domain requires', async () => {
      const domain = await createDomain(t);
      const admin = await createUser(t, { domainId: domain.id, isAdmin: true });
      const adminLogin = bearer((await tokenFor(t, admin)).token);
      await t.http.patch(POLICY).set(adminLogin).send({ mfa_required: true }).expect(200);
      const email = `invited-${Date.now()}@mfa.test`;
      await t.http.post('/API/users/v1/users/invite/').set(adminLogin).send({ email }).expect(201);
      const secret = await mailedSecret(t, email, 'invitation');
      const res = await t.http
        .put(`/API/auth/v1/invitation/complete/${secret}/`)
        .send({ password: 'A-long-unusual-passphrase-42', repeat_password: 'A-long-unusual-passphrase-42' })
        .expect(200);
      expect(res.body).toMatchObject({ auto_login: false, login_data: null, user_id: expect.any(String) });
      // the person is a member now, and signing in asks for the factor
      const login = await t.http
        .post(LOGIN)
        .send({ email, password: 'A-long-unusual-passphrase-42' })
        .expect(201);
      expect(login.body.token).toBeNull();
      expect(login.body.temp_token).toEqual(expect.any(String));
    });
  });
});
