import { randomUUID } from 'node:crypto';
import { Clock } from '../../src/base/common/clock.js';
import { GuessingDefence } from '../../src/accounts/lockout/guessing-defence.js';
import { LoginAttemptEntity } from '../../src/base/model/guessing-defence.entity.js';
import { MailOutboxEntity } from '../../src/base/model/mail-outbox.entity.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser, DEFAULT_PASSWORD } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { mailedSecret } from '../utils/mail.js';
import {
  authorizationRequest,
  CookieJar,
  createOAuthApp,
  hiddenField,
  OAUTH,
  type OAuthApp,
  pkce,
  SESSION_COOKIE,
  setCookie,
} from '../utils/oauth.js';

const LOGIN = '/API/auth/v1/auth/simple/login/';
const USERS = '/API/users/v1/users';
const THRESHOLD = 5; // the defaults: docs/security.md, Guessing defence
const BASE_S = 60;
const MAX_S = 3600;

/**
 * Per-account guessing defence: after THRESHOLD failed password checks the account is locked for that factor,
 * for BASE_S doubling per further failure up to MAX_S; during a lock even the right password gets the answer
 * of a wrong one, on every path that checks a password (simple login, the consent page, invitation completion).
 */
describe('guessing defence', () => {
  let t: TestApp;
  let clock: Clock;
  let defence: GuessingDefence;
  let oauthApp: OAuthApp;

  beforeAll(async () => {
    t = await createTestApp();
    clock = t.get(Clock);
    defence = t.get(GuessingDefence);
    oauthApp = await createOAuthApp(t, {
      kind: 'browser',
      name: 'Guessing',
      scopes: ['assets:read'],
      redirectUris: ['https://guess.example/callback'],
    });
  });
  afterAll(() => t.close());
  afterEach(() => clock.reset());

  const signIn = (email: string, password: string) => t.http.post(LOGIN).send({ email, password });
  const wrong = (user: UserEntity) => signIn(user.email, `wrong-${randomUUID()}`).expect(401);
  const row = (user: UserEntity, factor = 'password') =>
    t.ds.getRepository(LoginAttemptEntity).findOneBy({ user_id: user.id, factor: factor as 'password' });
  /** Seconds from the service's now to the lock's end. */
  const lockLeft = async (user: UserEntity) => {
    const r = await row(user);
    return r?.locked_until
      ? Math.round((new Date(r.locked_until).getTime() - clock.now().getTime()) / 1000)
      : 0;
  };
  const notices = (user: UserEntity) =>
    t.ds.getRepository(MailOutboxEntity).countBy({
      to_address: user.email,
      subject: 'Sign-in to your account was paused after failed attempts',
    });
  /**
   * The lock's length as set, in seconds: the attempt that set it wrote its end and its own time in one
   * statement (reservation-sql.ts), and attempts during a lock change neither. Exact, however much real time
   * passes between the attempt and the look (on a loaded machine, seconds).
   */
  const lockOf = async (user: UserEntity) => {
    const r = await row(user);
    return r?.locked_until && r.last_failure_at
      ? (new Date(r.locked_until).getTime() - new Date(r.last_failure_at).getTime()) / 1000
      : 0;
  };
  /** The answer of a wrong password, with what would tell answers apart. */
  const answer = (res: { status: number; body: unknown; headers: Record<string, string> }) => ({
    status: res.status,
    body: res.body,
    code: res.headers['x-error-code'],
  });

  describe('password sign-in', () => {
    it(`${THRESHOLD} wrong passwords lock the account; the right one is then refused exactly like a wrong one`, async () => {
      const user = await createUser(t);
      const first = await wrong(user);
      expect(answer(first)).toEqual({
        status: 401,
        body: { errors: ['Invalid email or password'] },
        code: 'login.BAD_CREDENTIALS',
      });
      for (let i = 1; i < THRESHOLD; i++) await wrong(user);
      expect(await row(user)).toMatchObject({ failures: THRESHOLD });
      expect(await lockOf(user)).toBe(BASE_S);
      // the owner, and only the owner, is told (once per run of failures)
      expect(await notices(user)).toBe(1);
      const right = await signIn(user.email, DEFAULT_PASSWORD).expect(401);
      expect(answer(right)).toEqual(answer(first));
      // an unknown email: the same answer, and no row
      const unknown = await signIn(`nobody-${randomUUID()}@example.com`, DEFAULT_PASSWORD).expect(401);
      expect(answer(unknown)).toEqual(answer(first));
    });

    it('fewer failures than the threshold lock nothing, and a success forgets them', async () => {
      const user = await createUser(t);
      for (let i = 1; i < THRESHOLD; i++) await wrong(user);
      expect(await lockLeft(user)).toBe(0);
      await signIn(user.email, DEFAULT_PASSWORD).expect(201);
      expect(await row(user)).toBeNull();
      for (let i = 1; i < THRESHOLD; i++) await wrong(user);
      await signIn(user.email, DEFAULT_PASSWORD).expect(201);
    });

    it('a success forgets the failures and sets last_login in its token statement', async () => {
      const user = await createUser(t);
      for (let i = 1; i < THRESHOLD; i++) await wrong(user);
      const before = clock.now().getTime();
      await signIn(user.email, DEFAULT_PASSWORD).expect(201);
      expect(await row(user)).toBeNull();
      const stored = await t.ds.getRepository(UserEntity).findOneByOrFail({ id: user.id });
      expect(stored.last_login?.getTime()).toBeGreaterThanOrEqual(before - 5_000);
    });

    // the right password that signs nobody in: the count the reservation made is forgotten by the sign-in
    // itself (the token statement carries the clear, and a refusal after the password forgets it on its own)
    it.each([
      ['an inactive account', 'inactive'],
      ['an account whose only domain is deactivated', 'no-domain'],
      ['an unusable marketplace nonce', 'nonce'],
    ])('the right password refused for %s: the failures are forgotten all the same', async (_w, kind) => {
      const domain = kind === 'no-domain' ? await createDomain(t) : null;
      const user = await createUser(t, {
        ...(domain ? { domainId: domain.id } : {}),
        ...(kind === 'inactive' ? { status: 'INACTIVE' as const } : {}),
      });
      for (let i = 1; i < THRESHOLD; i++) await wrong(user);
      expect(await row(user)).toMatchObject({ failures: THRESHOLD - 1 });
      if (domain)
        await t.ds.query(`UPDATE system_domains SET status = 'DEACTIVATED' WHERE id = $1`, [domain.id]);
      const right = await t.http.post(LOGIN).send({
        email: user.email,
        password: DEFAULT_PASSWORD,
        ...(kind === 'nonce' ? { marketplace_signup_nonce: randomUUID() } : {}),
      });
      expect(right.status).toBe(kind === 'nonce' ? 400 : 401);
      expect(await row(user)).toBeNull();
      // no lock can come of right passwords: THRESHOLD more of them leave no count behind
      for (let i = 0; i < THRESHOLD; i++)
        await t.http.post(LOGIN).send({ email: user.email, password: DEFAULT_PASSWORD });
      expect(await row(user)).toBeNull();
    });

    it('once the lock has expired the right password works and resets the count', async () => {
      const user = await createUser(t);
      for (let i = 0; i < THRESHOLD; i++) await wrong(user);
      clock.advance((BASE_S - 1) * 1000);
      await signIn(user.email, DEFAULT_PASSWORD).expect(401);
      clock.advance(2000);
      await signIn(user.email, DEFAULT_PASSWORD).expect(201);
      expect(await row(user)).toBeNull();
      // a fresh count: THRESHOLD - 1 failures again lock nothing
      for (let i = 1; i < THRESHOLD; i++) await wrong(user);
      await signIn(user.email, DEFAULT_PASSWORD).expect(201);
    });

    it('the lock doubles with each failure after it expires, capped; guesses during a lock do not extend it', async () => {
      const user = await createUser(t);
      for (let i = 0; i < THRESHOLD; i++) await wrong(user);
      const seen = [await lockOf(user)];
      // during the lock: refused without being counted, the lock stays as it was
      const locked = await row(user);
      await wrong(user);
      clock.advance(10_000);
      await wrong(user);
      expect(await row(user)).toEqual(locked);
      expect(await lockOf(user)).toBe(BASE_S);
      expect(await row(user)).toMatchObject({ failures: THRESHOLD });
      for (let i = 0; i < 7; i++) {
        clock.advance((await lockLeft(user)) * 1000 + 1000);
        await wrong(user);
        seen.push(await lockOf(user));
      }
      expect(seen).toEqual([60, 120, 240, 480, 960, 1920, MAX_S, MAX_S]);
      expect(await notices(user)).toBe(1);
      expect(await row(user)).toMatchObject({ failures: THRESHOLD + 7 });
      // however long the guessing went on, the owner is in again after at most MAX_S
      clock.advance(MAX_S * 1000 + 1000);
      await signIn(user.email, DEFAULT_PASSWORD).expect(201);
    });

    it('failures are forgotten after a day without one', async () => {
      const user = await createUser(t);
      for (let i = 1; i < THRESHOLD; i++) await wrong(user);
      clock.advance(24 * 3600 * 1000 + 1000);
      await wrong(user);
      expect(await row(user)).toMatchObject({ failures: 1, locked_until: null });
    });

    it(`50 parallel wrong guesses: exactly ${THRESHOLD} password verifications, every answer the same`, async () => {
      const user = await createUser(t);
      const before = defence.verifications;
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => signIn(user.email, `parallel-guess-${i}`)),
      );
      expect(defence.verifications - before).toBe(THRESHOLD);
      expect(new Set(answers.map((a) => JSON.stringify(answer(a))))).toEqual(
        new Set([JSON.stringify(answer(answers[0]))]),
      );
      expect(answers[0].status).toBe(401);
      expect(await row(user)).toMatchObject({ failures: THRESHOLD });
      expect(await lockOf(user)).toBe(BASE_S);
      // and the right password, in parallel with more guesses, is not even verified during the lock
      const more = await Promise.all([
        signIn(user.email, DEFAULT_PASSWORD),
        ...Array.from({ length: 10 }, () => signIn(user.email, 'again-wrong')),
      ]);
      expect(more.map((r) => r.status)).toEqual(Array(11).fill(401));
      expect(defence.verifications - before).toBe(THRESHOLD);
    });

    it('unknown emails create no rows', async () => {
      const rows = await t.ds.getRepository(LoginAttemptEntity).count();
      for (let i = 0; i < THRESHOLD + 2; i++) {
        await signIn(`ghost-${randomUUID()}@example.com`, 'whatever-password').expect(401);
      }
      await signIn('ghost@example.com', 'whatever-password').expect(401);
      expect(await t.ds.getRepository(LoginAttemptEntity).count()).toBe(rows);
    });

    it('a locked account’s existing tokens keep working: the lock is about guessing, not revocation', async () => {
      const user = await createUser(t);
      const { token } = await tokenFor(t, user);
      for (let i = 0; i < THRESHOLD; i++) await wrong(user);
      await t.http.get('/API/auth/v1/auth/token/').set(bearer(token)).expect(200);
      await t.http.get(`${USERS}/current/`).set(bearer(token)).expect(200);
    });
  });

  describe('POST /API/users/v1/users/{user_id}/unlock/', () => {
    const locked = async () => {
      const user = await createUser(t);
      for (let i = 0; i < THRESHOLD; i++) await wrong(user);
      await signIn(user.email, DEFAULT_PASSWORD).expect(401);
      return user;
    };
    const as = async (user: UserEntity, domainId?: string) =>
      bearer((await tokenFor(t, user, { domainId })).token);

    it('an administrator with can_write_users unlocks: 204, and the right password works at once', async () => {
      const user = await locked();
      const admin = await createUser(t, { isAdmin: true, roles: ['can_write_users'] });
      await t.http
        .post(`${USERS}/${user.id}/unlock/`)
        .set(await as(admin))
        .expect(204);
      expect(await row(user)).toBeNull();
      await signIn(user.email, DEFAULT_PASSWORD).expect(201);
      // unlocking an account that is not locked is no error
      await t.http
        .post(`${USERS}/${user.id}/unlock/`)
        .set(await as(admin))
        .expect(204);
    });

    it('a super administrator unlocks', async () => {
      const user = await locked();
      await t.http
        .post(`${USERS}/${user.id}/unlock/`)
        .set(await as(t.admin))
        .expect(204);
      await signIn(user.email, DEFAULT_PASSWORD).expect(201);
    });

    it('unlock lifts the second factors’ locks too', async () => {
      const user = await createUser(t);
      for (let i = 0; i < THRESHOLD; i++)
        await defence.attempt(user.id, 'totp', () => Promise.resolve(false));
      expect(await defence.lockedUntil(user.id, 'totp')).not.toBeNull();
      await t.http
        .post(`${USERS}/${user.id}/unlock/`)
        .set(await as(t.admin))
        .expect(204);
      expect(await defence.lockedUntil(user.id, 'totp')).toBeNull();
    });

    it('a user without can_write_users → 403; anonymous → 401; the lock stays', async () => {
      const user = await locked();
      const plain = await createUser(t, { roles: ['can_read_users'] });
      await t.http
        .post(`${USERS}/${user.id}/unlock/`)
        .set(await as(plain))
        .expect(403);
      await t.http
        .post(`${USERS}/${user.id}/unlock/`)
        .set(await as(user))
        .expect(403);
      await t.http.post(`${USERS}/${user.id}/unlock/`).expect(401);
      expect(await lockOf(user)).toBe(BASE_S);
    });

    it('another domain’s administrator → 404, like an unknown id', async () => {
      const user = await locked();
      const other = await createDomain(t);
      const foreign = await createUser(t, { domainId: other.id, isAdmin: true, roles: ['can_write_users'] });
      const res = await t.http
        .post(`${USERS}/${user.id}/unlock/`)
        .set(await as(foreign))
        .expect(404);
      const unknown = await t.http
        .post(`${USERS}/${randomUUID()}/unlock/`)
        .set(await as(foreign))
        .expect(404);
      expect(res.body).toEqual(unknown.body);
      expect(await lockOf(user)).toBe(BASE_S);
    });

    it('a can_write_users holder who is no administrator → 403, the lock stays', async () => {
      const user = await locked();
      const writer = await createUser(t, { roles: ['can_write_users'] });
      const res = await t.http
        .post(`${USERS}/${user.id}/unlock/`)
        .set(await as(writer))
        .expect(403);
      expect(res.body.errors[0]).toMatch(
        /Only an administrator of the user’s domain or a super administrator/,
      );
      expect(await lockOf(user)).toBe(BASE_S);
    });

    it('a user of several domains: no domain’s administrator unlocks them (403), a super administrator does', async () => {
      const other = await createDomain(t);
      const shared = await createUser(t, { alsoIn: [other.id] });
      for (let i = 0; i < THRESHOLD; i++) await wrong(shared);
      const adminHere = await createUser(t, { isAdmin: true, roles: ['can_write_users'] });
      const adminThere = await createUser(t, {
        domainId: other.id,
        isAdmin: true,
        roles: ['can_write_users'],
      });
      for (const [admin, domainId] of [
        [adminHere, t.domainId],
        [adminThere, other.id],
      ] as const) {
        const res = await t.http
          .post(`${USERS}/${shared.id}/unlock/`)
          .set(await as(admin, domainId))
          .expect(403);
        expect(res.body.errors[0]).toMatch(/also belongs to other domains: only a super administrator/);
        expect(res.headers['x-error-code']).toBe('users.UNLOCK_SHARED_ACCOUNT');
      }
      expect(await lockOf(shared)).toBe(BASE_S);
      await t.http
        .post(`${USERS}/${shared.id}/unlock/`)
        .set(await as(t.admin))
        .expect(204);
      await signIn(shared.email, DEFAULT_PASSWORD).expect(201);
    });

    it('a domain administrator cannot unlock a super administrator (rank rule of user writes)', async () => {
      const superUser = await createUser(t, { isSuperAdmin: true });
      for (let i = 0; i < THRESHOLD; i++) await wrong(superUser);
      const admin = await createUser(t, { isAdmin: true, roles: ['can_write_users'] });
      await t.http
        .post(`${USERS}/${superUser.id}/unlock/`)
        .set(await as(admin))
        .expect(403);
      expect(await lockOf(superUser)).toBe(BASE_S);
    });
  });

  describe('every password check is defended', () => {
    async function consentSignIn(email: string, password: string, status: number) {
      const params = authorizationRequest(oauthApp, pkce());
      const jar = new CookieJar();
      const page = await t.http.get(OAUTH.consent).query(params).set(jar.header()).expect(200);
      jar.store(page);
      return t.http
        .post(OAUTH.consentLogin)
        .set(jar.header())
        .type('form')
        .send({ ...params, csrf: hiddenField(page.text, 'csrf') as string, email, password })
        .expect(status);
    }

    it('the consent page’s sign-in counts, locks, and shares the count with simple login', async () => {
      const user = await createUser(t);
      for (let i = 0; i < THRESHOLD - 1; i++) await consentSignIn(user.email, 'wrong-password', 401);
      await wrong(user); // the THRESHOLD-th failure, through the other door
      const right = await consentSignIn(user.email, DEFAULT_PASSWORD, 401);
      expect(right.text).toContain('<p class="error" role="alert">Invalid email or password</p>');
      expect(setCookie(right, SESSION_COOKIE)).toBeUndefined();
      await signIn(user.email, DEFAULT_PASSWORD).expect(401);
      clock.advance(BASE_S * 1000 + 1000);
      const ok = await consentSignIn(user.email, DEFAULT_PASSWORD, 303);
      expect(setCookie(ok, SESSION_COOKIE)).toBeDefined();
      expect(await row(user)).toBeNull();
    });

    it('invitation completion for an existing account counts and locks; the right password is refused like a wrong one', async () => {
      const other = await createDomain(t);
      const existing = await createUser(t, { domainId: other.id });
      const inviter = await createUser(t, { roles: ['can_write_users'] });
      await t.http
        .post(`${USERS}/invite/`)
        .set(bearer((await tokenFor(t, inviter)).token))
        .send({ email: existing.email })
        .expect(201);
      const secret = await mailedSecret(t, existing.email, 'invitation');
      const complete = (password: string) =>
        t.http
          .put(`/API/auth/v1/invitation/complete/${secret}/`)
          .send({ password, repeat_password: password });
      const first = await complete('not-the-password').expect(400);
      for (let i = 1; i < THRESHOLD; i++) await complete('not-the-password').expect(400);
      expect(await row(existing)).toMatchObject({ failures: THRESHOLD });
      const right = await complete(DEFAULT_PASSWORD).expect(400);
      expect(answer(right)).toEqual(answer(first));
      await signIn(existing.email, DEFAULT_PASSWORD).expect(401);
      clock.advance(BASE_S * 1000 + 1000);
      const done = await complete(DEFAULT_PASSWORD).expect(200);
      expect(done.body.user_id).toBe(existing.id);
    });
  });

  describe('GuessingDefence.attempt for the other factors (TOTP, mail codes, recovery codes)', () => {
    it('counts each factor on its own, refuses during a lock without verifying, and clears on success', async () => {
      const user = await createUser(t);
      let runs = 0;
      const verify = (ok: boolean) => () => {
        runs++;
        return Promise.resolve(ok);
      };
      for (let i = 0; i < THRESHOLD; i++) {
        expect(await defence.attempt(user.id, 'mail_otp', verify(false))).toBe('wrong');
      }
      expect(await defence.attempt(user.id, 'mail_otp', verify(true))).toBe('locked');
      expect(runs).toBe(THRESHOLD);
      // other factors and the password are not locked by it
      expect(await defence.attempt(user.id, 'recovery', verify(true))).toBe('ok');
      await signIn(user.email, DEFAULT_PASSWORD).expect(201);
      clock.advance(BASE_S * 1000 + 1000);
      expect(await defence.attempt(user.id, 'mail_otp', verify(true))).toBe('ok');
      expect(await row(user, 'mail_otp')).toBeNull();
    });

    it('a verification that throws counts as a failure', async () => {
      const user = await createUser(t);
      await expect(defence.attempt(user.id, 'totp', () => Promise.reject(new Error('boom')))).rejects.toThrow(
        'boom',
      );
      expect(await row(user, 'totp')).toMatchObject({ failures: 1 });
    });
  });
});
