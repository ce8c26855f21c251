import { randomBytes, randomUUID } from 'node:crypto';
import { Clock } from '../../src/base/common/clock.js';
import { verifyPassword } from '../../src/base/common/crypto/passwords.js';
import { sha256Hex } from '../../src/base/common/crypto/secrets.js';
import { redactPath } from '../../src/base/common/http/secret-paths.js';
import { MailOutboxEntity } from '../../src/base/model/mail-outbox.entity.js';
import { PasswordResetEntity } from '../../src/base/model/password-reset.entity.js';
import { FORGOT_ANSWER_FLOOR_MS } from '../../src/accounts/passwords/passwords.service.js';
import { TOO_COMMON } from '../../src/accounts/passwords/password-policy.service.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedSecret } from '../utils/mail.js';

const P = '/API/auth/v1/password';
const USERS = '/API/users/v1/users';
const LOGIN = '/API/auth/v1/auth/simple/login/';
const NEW_PASSWORD = 'violet-kettle-orbit-42';
const EXPIRED = { errors: ['Authentication token expired'] };
const CHECKS_EXPIRED = { errors: ['Reset password token expired'] };
const NO_CHECKS = {
  digits: null,
  lowercase: null,
  special_symbols: null,
  uppercase: null,
  min_length: null,
  max_length: null,
};

/**
 * Self-service password reset (a mailed single-use link) and the domains' PasswordChecks, enforced on every
 * password set anywhere (reset, users create/update, invitation completion).
 */
describe('passwords', () => {
  let t: TestApp;
  const email = (prefix = 'pw') => `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
  const as = async (user: UserEntity, domainId?: string) =>
    bearer((await tokenFor(t, user, { domainId })).token);
  const mails = (to: string) => t.ds.getRepository(MailOutboxEntity).countBy({ to_address: to });
  const forgot = (address: string) => t.http.post(`${P}/forgot/`).send({ email: address });
  const linkFor = async (user: UserEntity) => {
    await forgot(user.email).expect(201);
    return mailedSecret(t, user.email, 'password/reset');
  };
  const reset = (secret: string, password = NEW_PASSWORD, repeat = password) =>
    t.http.put(`${P}/reset/${secret}/`).send({ password, repeat_password: repeat });
  const passwordOf = async (id: string) =>
    (
      await t.ds
        .getRepository(UserEntity)
        .createQueryBuilder('u')
        .addSelect('u.password_hash')
        .where('u.id = :id', { id })
        .getOneOrFail()
    ).password_hash as string;
  const signIn = (address: string, password: string) => t.http.post(LOGIN).send({ email: address, password });
  /** When the account last proved its address (OpenID Connect email_verified). */
  const verifiedAt = async (id: string) =>
    (await t.ds.getRepository(UserEntity).findOneByOrFail({ id })).email_verified_at;
  const setChecks = (headers: Record<string, string>, checks: Record<string, unknown>) =>
    t.http.put(`${P}/checks/`).set(headers).send(checks);

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => t.get(Clock).reset());

  describe('POST /v1/password/forgot/', () => {
    it('mails a single-use link to an active account and stores only the SHA-256 of its secret', async () => {
      const user = await createUser(t);
      const res = await forgot(user.email).expect(201);
      expect(res.text).toBe('');
      const secret = await mailedSecret(t, user.email, 'password/reset');
      const [row] = await t.ds
        .getRepository(PasswordResetEntity)
        .createQueryBuilder('r')
        .addSelect('r.secret_sha256')
        .where('r.user_id = :id', { id: user.id })
        .getMany();
      expect(row.secret_sha256).toBe(sha256Hex(secret));
      expect(JSON.stringify(row)).not.toContain(secret);
      // valid for the configured hour
      const ttl = new Date(row.expires).getTime() - new Date(row.date_created).getTime();
      expect(Math.abs(ttl - 3600 * 1000)).toBeLessThan(5000);
      // the email in another case reaches the same account
      await forgot(user.email.toUpperCase()).expect(201);
      expect(await mails(user.email)).toBe(2);
    });

    it('answers the same, after about the same time, for unknown and inactive emails, and mails nothing', async () => {
      const inactive = await createUser(t, { status: 'INACTIVE' });
      const known = await createUser(t);
      const unknown = email('nobody');
      const timed = async (address: string) => {
        const started = Date.now();
        const res = await forgot(address).expect(201);
        return { ms: Date.now() - started, body: res.text, headers: Object.keys(res.headers).sort() };
      };
      const [a, b, c] = [await timed(unknown), await timed(inactive.email), await timed(known.email)];
      for (const r of [a, b, c]) {
        expect(r.ms).toBeGreaterThanOrEqual(FORGOT_ANSWER_FLOOR_MS - 5);
        expect(r.body).toBe('');
      }
      expect(a.headers).toEqual(c.headers);
      expect(await mails(unknown)).toBe(0);
      expect(await mails(inactive.email)).toBe(0);
      expect(await mails(known.email)).toBe(1);
      expect(await t.ds.getRepository(PasswordResetEntity).countBy({ user_id: inactive.id })).toBe(0);
    });

    it('refuses a body that is not an email (400), and hostile input', async () => {
      await t.http.post(`${P}/forgot/`).send({}).expect(400);
      const bad = await t.http.post(`${P}/forgot/`).send({ email: 'not-an-email' }).expect(400);
      expect(bad.body.errors).toHaveProperty('email');
      await t.http
        .post(`${P}/forgot/`)
        .send({ email: ['a@example.com'] })
        .expect(400);
      await t.http.post(`${P}/forgot/`).send({ email: 'a\u0000@example.com' }).expect(400);
      await t.http
        .post(`${P}/forgot/`)
        .send({ email: `${'a'.repeat(300)}@example.com` })
        .expect(400);
      // the spec's optional reset_hash is accepted and ignored
      await t.http.post(`${P}/forgot/`).send({ email: email(), reset_hash: null }).expect(201);
    });

    it('a new request supersedes the previous link (419 for the old one)', async () => {
      const user = await createUser(t);
      const first = await linkFor(user);
      const second = await linkFor(user);
      expect(second).not.toBe(first);
      expect((await reset(first).expect(419)).body).toEqual(EXPIRED);
      await t.http.get(`${P}/${first}/checks/`).expect(419);
      await reset(second).expect(200);
    });
  });

  describe('PUT /v1/password/reset/{reset_hash}/', () => {
    it('a reset lifts the password lock a guesser caused (the mailbox is proved); other factors keep theirs', async () => {
      const user = await createUser(t);
      const threshold = t.config.lockout.threshold;
      for (let i = 0; i < threshold; i++) await signIn(user.email, 'a-wrong-guess-123').expect(401);
      await signIn(user.email, DEFAULT_PASSWORD).expect(401); // locked: even the right password is refused
      await t.ds.query(
        `INSERT INTO login_attempts (user_id, factor, failures, locked_until, last_failure_at)
         VALUES ($1, 'totp', 9, now() + interval '1 hour', now())`,
        [user.id],
      );
      await reset(await linkFor(user)).expect(200);
      await signIn(user.email, NEW_PASSWORD).expect(201);
      const left: { factor: string }[] = await t.ds.query(
        'SELECT factor FROM login_attempts WHERE user_id = $1',
        [user.id],
      );
      expect(left.map((r) => r.factor)).toEqual(['totp']);
    });

    it('sets the password once (200, no body); the old password stops working, the new one signs in', async () => {
      const user = await createUser(t);
      await signIn(user.email, DEFAULT_PASSWORD).expect(201);
      expect(await verifiedAt(user.id)).toBeNull(); // a password proves nothing about the mailbox
      const secret = await linkFor(user);
      const res = await reset(secret).expect(200);
      expect(res.text).toBe('');
      // the mailed link proved the address (the database's now(), with the reset)
      const proved = await verifiedAt(user.id);
      expect(proved).toBeInstanceOf(Date);
      expect(Math.abs(proved!.getTime() - Date.now())).toBeLessThan(60_000);
      expect(await verifyPassword(await passwordOf(user.id), NEW_PASSWORD)).toBe(true);
      await signIn(user.email, DEFAULT_PASSWORD).expect(401);
      await signIn(user.email, NEW_PASSWORD).expect(201);
      // replay: 419 with the spec's body, and nothing changes
      const replay = await reset(secret, 'another-strong-passphrase-9').expect(419);
      expect(replay.body).toEqual(EXPIRED);
      expect(await verifyPassword(await passwordOf(user.id), NEW_PASSWORD)).toBe(true);
    });

    it('revokes every token of the account: sign-ins (401 after), PATs and OAuth tokens; other users keep theirs', async () => {
      const user = await createUser(t);
      const other = await createUser(t);
      const signedIn = await as(user);
      const pat = bearer((await tokenFor(t, user, { kind: 'PAT' })).token);
      const oauth = bearer(
        (await tokenFor(t, user, { kind: 'OAUTH', scopes: ['user_impersonation'] })).token,
      );
      const others = await as(other);
      for (const h of [signedIn, pat, oauth, others])
        await t.http.get(`${USERS}/current/`).set(h).expect(200);
      await reset(await linkFor(user)).expect(200);
      for (const h of [signedIn, pat, oauth]) await t.http.get(`${USERS}/current/`).set(h).expect(401);
      await t.http.get(`${USERS}/current/`).set(others).expect(200);
    });

    it('expires after the configured hour (Clock): 419, and the link checks answer 419 too', async () => {
      const user = await createUser(t);
      const secret = await linkFor(user);
      t.get(Clock).advance(3600 * 1000 + 1000);
      expect((await reset(secret).expect(419)).body).toEqual(EXPIRED);
      expect((await t.http.get(`${P}/${secret}/checks/`).expect(419)).body).toEqual(CHECKS_EXPIRED);
      await signIn(user.email, DEFAULT_PASSWORD).expect(201);
      expect(await verifiedAt(user.id)).toBeNull();
    });

    it('a link mailed to the old address stops working when the email changes, and never proves the new one', async () => {
      const admin = await as(await createUser(t, { isAdmin: true }));
      const user = await createUser(t);
      const secret = await linkFor(user);
      const moved = email('moved');
      await t.http.patch(`${USERS}/${user.id}/`).set(admin).send({ email: moved }).expect(200);
      expect((await reset(secret).expect(419)).body).toEqual(EXPIRED);
      expect(await verifiedAt(user.id)).toBeNull();
      // a link mailed to the new address proves it
      await reset(await linkFor({ ...user, email: moved } as UserEntity)).expect(200);
      expect(await verifiedAt(user.id)).toBeInstanceOf(Date);
    });

    it('works just before expiry', async () => {
      const user = await createUser(t);
      const secret = await linkFor(user);
      t.get(Clock).advance(3600 * 1000 - 60 * 1000);
      await reset(secret).expect(200);
    });

    it('a link sets only its own account’s password', async () => {
      const a = await createUser(t);
      const b = await createUser(t);
      const linkA = await linkFor(a);
      await linkFor(b);
      const before = await passwordOf(b.id);
      await reset(linkA).expect(200);
      expect(await passwordOf(b.id)).toBe(before);
      await signIn(b.email, DEFAULT_PASSWORD).expect(201);
      await signIn(a.email, NEW_PASSWORD).expect(201);
    });

    it('a mismatch is a 400 naming repeat_password and does not use the link', async () => {
      const user = await createUser(t);
      const secret = await linkFor(user);
      const res = await reset(secret, NEW_PASSWORD, `${NEW_PASSWORD}x`).expect(400);
      expect(res.body).toEqual({ errors: { repeat_password: 'must be the same as password' } });
      const weak = await reset(secret, 'password1').expect(400);
      expect(weak.body.errors.password).toContain(TOO_COMMON);
      expect(await verifiedAt(user.id)).toBeNull(); // refused: nothing proved
      await reset(secret).expect(200);
    });

    it('unknown, guessed and malformed links are 404 (no account is touched)', async () => {
      const guessed = randomBytes(32).toString('base64url');
      expect((await reset(guessed).expect(404)).body).toEqual({ errors: ['Reset password link not found'] });
      for (const bad of ['short', 'a'.repeat(2000), '%00' + 'a'.repeat(40), "'; DROP TABLE users; --"]) {
        await reset(encodeURIComponent(bad)).expect(404);
        await t.http.get(`${P}/${encodeURIComponent(bad)}/checks/`).expect(404);
      }
      // a stored hash does not work as a link
      const user = await createUser(t);
      const secret = await linkFor(user);
      await reset(sha256Hex(secret)).expect(404);
      expect(await verifiedAt(user.id)).toBeNull();
    });

    it('refuses hostile bodies (400) without using the link', async () => {
      const user = await createUser(t);
      const secret = await linkFor(user);
      await t.http.put(`${P}/reset/${secret}/`).send({}).expect(400);
      await t.http.put(`${P}/reset/${secret}/`).send({ password: 5, repeat_password: 5 }).expect(400);
      const huge = 'x'.repeat(5000);
      await t.http.put(`${P}/reset/${secret}/`).send({ password: huge, repeat_password: huge }).expect(400);
      await t.http
        .put(`${P}/reset/${secret}/`)
        .send({ password: 'a\u0000bcdefghijklmn', repeat_password: 'a\u0000bcdefghijklmn' })
        .expect(400);
      await reset(secret).expect(200);
    });

    it('two resets racing with the same link: one wins, the other is a 419', async () => {
      const user = await createUser(t);
      const secret = await linkFor(user);
      const results = await Promise.all([reset(secret), reset(secret, 'second-racer-password-7')]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 419]);
    });

    it('a link of a deactivated account stops working (419)', async () => {
      const user = await createUser(t);
      const secret = await linkFor(user);
      await t.ds.getRepository(UserEntity).update({ id: user.id }, { status: 'INACTIVE' });
      await reset(secret).expect(419);
    });

    it('never puts the link’s secret in a log line: the paths are redacted', () => {
      const secret = randomBytes(32).toString('base64url');
      expect(redactPath(`${P}/reset/${secret}/`)).toBe(`${P}/reset/[redacted]/`);
      expect(redactPath(`${P}/${secret}/checks/`)).toBe(`${P}/[redacted]/checks/`);
      expect(redactPath(`${P}/checks/`)).toBe(`${P}/checks/`);
    });
  });

  describe('PasswordChecks', () => {
    let domainId: string;
    let admin: UserEntity;
    let h: Record<string, string>;
    beforeAll(async () => {
      domainId = (await createDomain(t)).id;
      admin = await createUser(t, { domainId, isAdmin: true, roles: ['can_write_users', 'can_read_users'] });
      h = await as(admin);
    });

    it('GET /v1/password/checks/ needs credentials and shows the caller’s domain’s checks (none yet)', async () => {
      await t.http.get(`${P}/checks/`).expect(401);
      expect((await t.http.get(`${P}/checks/`).set(h).expect(200)).body).toEqual(NO_CHECKS);
    });

    it('administrators set them (PUT), members read them, other domains are not affected', async () => {
      const checks = { ...NO_CHECKS, digits: 1, min_length: 10 };
      expect((await setChecks(h, checks).expect(200)).body).toEqual(checks);
      const member = await createUser(t, { domainId, roles: ['can_write_users'] });
      const mh = await as(member);
      expect((await t.http.get(`${P}/checks/`).set(mh).expect(200)).body).toEqual(checks);
      await setChecks(mh, { digits: 5 }).expect(403);
      await setChecks({}, { digits: 5 }).expect(401);
      // the default domain is untouched
      const elsewhere = await as(await createUser(t));
      expect((await t.http.get(`${P}/checks/`).set(elsewhere).expect(200)).body).toEqual(NO_CHECKS);
      // PUT replaces: omitted fields become null
      expect((await setChecks(h, { uppercase: 1 }).expect(200)).body).toEqual({ ...NO_CHECKS, uppercase: 1 });
      await setChecks(h, {}).expect(200);
    });

    it('refuses values outside the spec’s limits and inconsistent ones', async () => {
      for (const bad of [
        { min_length: 7 },
        { min_length: 57 },
        { max_length: 7 },
        { max_length: 65 },
        { digits: -1 },
        { uppercase: 1.5 },
        { lowercase: 'many' },
      ]) {
        const res = await setChecks(h, bad).expect(400);
        expect(Object.keys(res.body.errors)).toEqual(Object.keys(bad));
      }
      expect((await setChecks(h, { min_length: 20, max_length: 12 }).expect(400)).body.errors).toHaveProperty(
        'max_length',
      );
      expect(
        (await setChecks(h, { digits: 5, uppercase: 5, max_length: 8 }).expect(400)).body.errors,
      ).toHaveProperty('max_length');
      await setChecks(h, { min_length: 8, max_length: 8 }).expect(200);
      await setChecks(h, { min_length: 56, max_length: 64 }).expect(200);
      await setChecks(h, {}).expect(200);
    });

    it('each rule refuses with its own message; several failures are one password message listing them', async () => {
      await setChecks(h, {
        digits: 2,
        lowercase: 2,
        uppercase: 2,
        special_symbols: 2,
        min_length: 14,
        max_length: 24,
      }).expect(200);
      const create = (password: string) =>
        t.http
          .post(`${USERS}/`)
          .set(h)
          .send({ email: email('rules'), password });
      const cases: [string, string][] = [
        ['Kx!9mQ#2vw', 'must be at least 14 characters'],
        ['Kx!9mQ#2vwZr%8tLp$4nBy&6', ''], // 24 characters: fits
        ['Kx!9mQ#2vwZr%8tLp$4nBy&6j', 'must be at most 24 characters'],
        ['Kx!mQ#vwZr%tLpnB', 'must contain at least 2 digits'],
        ['KX!9MQ#2VWZR%8T', 'must contain at least 2 lowercase letters'],
        ['kx!9mq#2vwzr%8t', 'must contain at least 2 uppercase letters'],
        ['Kx19mQa2vwZr78tL', 'must contain at least 2 special symbols'],
      ];
      for (const [password, message] of cases) {
        const res = await create(password);
        if (!message) {
          expect(res.status).toBe(201);
          continue;
        }
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ errors: { password: message } });
      }
      const several = await create('abcdefgh').expect(400);
      expect(several.body.errors.password.split('; ')).toEqual([
        'must be at least 14 characters',
        'must contain at least 2 digits',
        'must contain at least 2 uppercase letters',
        'must contain at least 2 special symbols',
        TOO_COMMON,
      ]);
      await setChecks(h, {}).expect(200);
    });

    it('refuses common and easily guessed passwords everywhere (offline dictionary), whatever the checks', async () => {
      for (const password of ['password1', 'qwertyuiop', 'iloveyou123', '12345678', 'Password123!']) {
        const res = await t.http
          .post(`${USERS}/`)
          .set(h)
          .send({ email: email('common'), password })
          .expect(400);
        expect(res.body.errors.password).toContain(TOO_COMMON);
      }
      // built from the person's own email
      const address = email('marigold');
      const own = await t.http
        .post(`${USERS}/`)
        .set(h)
        .send({ email: address, password: address })
        .expect(400);
      expect(own.body.errors.password).toContain(TOO_COMMON);
      await t.http
        .post(`${USERS}/`)
        .set(h)
        .send({ email: email('ok'), password: NEW_PASSWORD })
        .expect(201);
    });

    it('users PATCH (by an administrator and by the user) is held to the checks', async () => {
      await setChecks(h, { digits: 3 }).expect(200);
      // changing one's own password needs can_write_users (users.service.ts); names alone do not
      const user = await createUser(t, { domainId, roles: ['can_write_users'] });
      const weak = await t.http
        .patch(`${USERS}/${user.id}/`)
        .set(h)
        .send({ password: 'violet-kettle-orbit' })
        .expect(400);
      expect(weak.body).toEqual({ errors: { password: 'must contain at least 3 digits' } });
      await t.http
        .patch(`${USERS}/${user.id}/`)
        .set(h)
        .send({ password: 'violet-kettle-orbit-123' })
        .expect(200);
      const self = await as(user, domainId);
      await t.http.patch(`${USERS}/current/`).set(self).send({ password: 'qwertyuiop1' }).expect(400);
      await t.http
        .patch(`${USERS}/current/`)
        .set(self)
        .send({ password: 'amber-quill-forest-456' })
        .expect(200);
      await setChecks(h, {}).expect(200);
    });

    it('invitation completion for a new account is held to the inviting domain’s checks', async () => {
      await setChecks(h, { uppercase: 2 }).expect(200);
      const address = email('invited');
      await t.http.post(`${USERS}/invite/`).set(h).send({ email: address }).expect(201);
      const secret = await mailedSecret(t, address, 'invitation');
      const complete = (password: string) =>
        t.http
          .put(`/API/auth/v1/invitation/complete/${secret}/`)
          .send({ password, repeat_password: password });
      expect((await complete('violet-kettle-orbit-42').expect(400)).body).toEqual({
        errors: { password: 'must contain at least 2 uppercase letters' },
      });
      expect((await complete('password1').expect(400)).body.errors.password).toContain(TOO_COMMON);
      await complete('Violet-Kettle-Orbit-42').expect(200);
      await setChecks(h, {}).expect(200);
    });

    it('a user of two domains is held to the strictest union of both (reset link checks and reset)', async () => {
      const other = await createDomain(t);
      const otherAdmin = await createUser(t, { domainId: other.id, isAdmin: true });
      await setChecks(h, { digits: 2, max_length: 40, min_length: 10 }).expect(200);
      await setChecks(await as(otherAdmin), { uppercase: 1, max_length: 30, min_length: 12 }).expect(200);
      const user = await createUser(t, { domainId, alsoIn: [other.id] });
      const secret = await linkFor(user);
      const union = { ...NO_CHECKS, digits: 2, uppercase: 1, min_length: 12, max_length: 30 };
      expect((await t.http.get(`${P}/${secret}/checks/`).expect(200)).body).toEqual(union);
      // the link's checks need no credentials; the caller's own checks stay those of their domain
      expect(
        (
          await t.http
            .get(`${P}/checks/`)
            .set(await as(user, domainId))
            .expect(200)
        ).body,
      ).toEqual({
        ...NO_CHECKS,
        digits: 2,
        max_length: 40,
        min_length: 10,
      });
      const onlyFirst = await reset(secret, 'qz-vyk-73x').expect(400);
      expect(onlyFirst.body).toEqual({
        errors: { password: 'must be at least 12 characters; must contain at least 1 uppercase letter' },
      });
      await reset(secret, 'violet-kettle-orbit-42-and-much-longer').expect(400); // over 30
      await reset(secret, 'Violet-Kettle-42').expect(200);
      // a member of one of those domains only is held to that domain's checks alone
      const single = await createUser(t, { domainId: other.id });
      const link = await linkFor(single);
      expect((await t.http.get(`${P}/${link}/checks/`).expect(200)).body).toEqual({
        ...NO_CHECKS,
        uppercase: 1,
        max_length: 30,
        min_length: 12,
      });
      await setChecks(h, {}).expect(200);
    });
  });

  describe('rate limit: forgot, reset and the link checks draw on the sign-in budget', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await createTestApp({
        RATE_LIMIT_SIGNIN_BURST: '2',
        RATE_LIMIT_SIGNIN_PER_SECOND: '0.01',
        TRUST_PROXY: '1',
      });
    });
    afterAll(() => limited.close());

    it.each([
      [
        'forgot',
        (ip: string) =>
          limited.http.post(`${P}/forgot/`).set('X-Forwarded-For', ip).send({ email: 'x@example.com' }),
      ],
      [
        'reset',
        (ip: string) =>
          limited.http
            .put(`${P}/reset/${randomBytes(32).toString('base64url')}/`)
            .set('X-Forwarded-For', ip)
            .send({ password: NEW_PASSWORD, repeat_password: NEW_PASSWORD }),
      ],
      [
        'link checks',
        (ip: string) =>
          limited.http
            .get(`${P}/${randomBytes(32).toString('base64url')}/checks/`)
            .set('X-Forwarded-For', ip),
      ],
    ])('%s: the third call from one address is a 429', async (name, call) => {
      const ip = `198.51.100.${name.length}`;
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await call(ip)).status);
      expect(statuses[2]).toBe(429);
      expect(statuses.slice(0, 2)).not.toContain(429);
    });
  });
});
