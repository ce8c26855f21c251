import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Clock } from '../../src/base/common/clock.js';
import { EMAIL_LOGIN_ANSWER_FLOOR_MS } from '../../src/sign-in/login/email-login.service.js';
import { MailOutboxEntity } from '../../src/base/model/mail-outbox.entity.js';
import { MailWorker } from '../../src/delivery/mail/mail-worker.service.js';
import { FORGOT_ANSWER_FLOOR_MS } from '../../src/accounts/passwords/passwords.service.js';
import { UserEntity } from '../../src/base/model/user.entity.js';
import { createDomain, createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { linkIn, SmtpSink } from '../utils/smtp.js';

const REQUEST = '/API/auth/v1/auth/email/login/';
const VALIDATE = '/API/auth/v1/auth/token/';
const FAST = { MAIL_POLL_INTERVAL_MS: '20', MAIL_RETRY_BASE_MS: '20', MAIL_RETRY_MAX_MS: '60' };
const address = (p: string) => `${p}-${randomUUID().slice(0, 8)}@example.com`;

/** Email login: a single-use sign-in link by mail (POST /API/auth/v1/auth/email/login/). */
describe('email login', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      const cb = rest[rest.length - 1];
      if (typeof cb === 'function') (cb as () => void)();
      return true;
    }) as typeof process.stdout.write;
    t = await createTestApp({ ...FAST, SMTP_URL: smtp.url, LOG_LEVEL: 'trace' });
  });
  afterAll(async () => {
    process.stdout.write = write;
    await t.close();
    await smtp.close();
  });
  afterEach(() => t.get(Clock).reset());

  /** Asks for a link for `email` and returns the link's secret (from the mail the SMTP server received). */
  async function requestLink(email: string, nth = 1): Promise<{ link: string; secret: string }> {
    const res = await t.http.post(REQUEST).send({ email, app_name: 'tests' }).expect(201);
    expect(res.text).toBe('');
    const mails = await smtp.mailFor(email, nth);
    const link = linkIn(mails[nth - 1], `${t.config.http.publicBaseUrl}/login/email/`);
    return { link, secret: link.split('/').pop() as string };
  }

  const complete = (secret: string) => t.http.post(`${REQUEST}${encodeURIComponent(secret)}/`);
  /** When the account last proved its address (OpenID Connect email_verified). */
  const verifiedAt = async (id: string) =>
    (await t.ds.getRepository(UserEntity).findOneByOrFail({ id })).email_verified_at;

  it('mails a link; the page behind it consumes nothing; its button signs the user in once', async () => {
    const user = await createUser(t, { email: address('happy') });
    const { link, secret } = await requestLink(user.email);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [mail] = await smtp.mailFor(user.email);
    expect(mail.subject).toBe('Your sign-in link');
    expect(mail.html).toContain(`href="${link}"`);

    // a mail scanner fetching the link twice uses nothing up
    const path = new URL(link).pathname;
    for (let i = 0; i < 2; i++) {
      const page = await t.http.get(path).expect(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['content-security-policy']).toBe(
        `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${new URL(t.config.http.publicBaseUrl).origin}; frame-ancestors 'none'; base-uri 'none'`,
      );
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.text).toContain(`action="${t.config.http.publicBaseUrl}${REQUEST}${secret}/"`);
      expect(page.text).toContain('method="post"');
    }

    expect(await verifiedAt(user.id)).toBeNull();
    const signedIn = await t.http.post(`${REQUEST}${secret}/`).type('form').send('').expect(201);
    expect(signedIn.body).toMatchObject({ user_id: user.id, system_domain_id: t.domainId, kind: 'LOGIN' });
    // the link came by mail: its use proved the address (the database's now())
    const proved = await verifiedAt(user.id);
    expect(proved).toBeInstanceOf(Date);
    expect(Math.abs(proved!.getTime() - Date.now())).toBeLessThan(60_000);
    const v = await t.http.get(VALIDATE).set(bearer(signedIn.body.token)).expect(200);
    expect(v.body.user_id).toBe(user.id);

    const again = await complete(secret).expect(419);
    expect(again.body).toEqual({ errors: ['Sign-in link expired or already used'] });
  });

  it('stores only the SHA-256 of the secret, and no link in clear in the outbox', async () => {
    const user = await createUser(t, { email: address('hashed') });
    const { secret } = await requestLink(user.email);
    const dump = JSON.stringify(await t.ds.query('SELECT * FROM email_login_links'));
    expect(dump).not.toContain(secret);
    expect(dump).toContain(createHash('sha256').update(secret).digest('hex'));
    const outbox = JSON.stringify(await t.ds.query('SELECT * FROM mail_outbox'));
    expect(outbox).not.toContain(secret);
  });

  it('answers an unknown or deactivated address exactly as a known one, and mails nothing', async () => {
    const known = await createUser(t, { email: address('known') });
    const gone = await createUser(t, { email: address('gone'), status: 'INACTIVE' });
    const unknown = address('nobody');
    const answers = [];
    for (const email of [known.email, gone.email, unknown, unknown.toUpperCase()]) {
      const r = await t.http.post(REQUEST).send({ email }).expect(201);
      answers.push({ body: r.text, type: r.headers['content-type'] ?? null });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    await smtp.mailFor(known.email);
    // mail leaves only through the outbox, which holds nothing for them; and the worker has looked again since
    await t.get(MailWorker).afterRounds(2);
    for (const to of [gone.email, unknown]) {
      expect(smtp.received.filter((m) => m.to.includes(to))).toEqual([]);
      expect(await t.ds.getRepository(MailOutboxEntity).countBy({ to_address: to })).toBe(0);
    }
  });

  it('takes the same padded floor for a known, a deactivated and an unknown address (no timing oracle)', async () => {
    const known = await createUser(t, { email: address('timed') });
    const gone = await createUser(t, { email: address('timed-gone'), status: 'INACTIVE' });
    for (const email of [known.email, gone.email, address('timed-nobody')]) {
      const started = performance.now();
      await t.http.post(REQUEST).send({ email }).expect(201);
      // the floor is a lower bound; nothing tight is asserted above it (a loaded machine is slower anyway)
      expect(performance.now() - started).toBeGreaterThanOrEqual(EMAIL_LOGIN_ANSWER_FLOOR_MS - 1);
    }
    expect(EMAIL_LOGIN_ANSWER_FLOOR_MS).toBe(FORGOT_ANSWER_FLOOR_MS);
  });

  it('expires after 15 minutes (on the clock)', async () => {
    const user = await createUser(t, { email: address('late') });
    const early = await requestLink(user.email);
    t.get(Clock).advance(14 * 60_000);
    await complete(early.secret).expect(201);

    const late = await requestLink(user.email, 2);
    t.get(Clock).advance(15 * 60_000 + 1_000);
    const res = await complete(late.secret).expect(419);
    expect(res.body).toEqual({ errors: ['Sign-in link expired or already used'] });
    // an expired link proves nothing
    const expired = await createUser(t, { email: address('expired') });
    const old = await requestLink(expired.email);
    t.get(Clock).advance(15 * 60_000 + 1_000);
    await complete(old.secret).expect(419);
    expect(await verifiedAt(expired.id)).toBeNull();
  });

  it('a link mailed before an email change stops working and proves nothing', async () => {
    const admin = bearer((await tokenFor(t, await createUser(t, { isAdmin: true }))).token);
    const user = await createUser(t, { email: address('mover') });
    const { secret } = await requestLink(user.email);
    await t.http
      .patch(`/API/users/v1/users/${user.id}/`)
      .set(admin)
      .send({ email: address('moved') })
      .expect(200);
    await complete(secret).expect(419);
    expect(await verifiedAt(user.id)).toBeNull();
  });

  it('a newer request replaces the older link', async () => {
    const user = await createUser(t, { email: address('twice') });
    const first = await requestLink(user.email);
    const second = await requestLink(user.email, 2);
    await complete(first.secret).expect(419);
    await complete(second.secret).expect(201);
  });

  it('a user deactivated after the mail went gets nothing usable from the link', async () => {
    const user = await createUser(t, { email: address('deactivated') });
    const { secret } = await requestLink(user.email);
    await t.ds.getRepository(UserEntity).update({ id: user.id }, { status: 'INACTIVE' });
    const res = await complete(secret).expect(419);
    expect(res.body.token).toBeUndefined();
    expect(await verifiedAt(user.id)).toBeNull();
  });

  it('signs in the link’s own user only, in that user’s own domains (another tenant stays apart)', async () => {
    const other = await createDomain(t, { name: 'Elsewhere' });
    const a = await createUser(t, { email: address('alice') });
    const b = await createUser(t, { email: address('bob'), domainId: other.id });
    const la = await requestLink(a.email);
    const lb = await requestLink(b.email);
    const ra = await complete(la.secret).expect(201);
    const rb = await complete(lb.secret).expect(201);
    expect(ra.body.user_id).toBe(a.id);
    expect(ra.body.system_domains).toEqual([t.domainId]);
    expect(rb.body.user_id).toBe(b.id);
    expect(rb.body.system_domains).toEqual([other.id]);
    expect(rb.body.auth_system_domains.map((i: { system_domain_id: string }) => i.system_domain_id)).toEqual([
      other.id,
    ]);
  });

  it('parallel uses of one link: exactly one signs in', async () => {
    const user = await createUser(t, { email: address('race') });
    const { secret } = await requestLink(user.email);
    const results = await Promise.all(Array.from({ length: 8 }, () => complete(secret)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 419)).toHaveLength(7);
  });

  it('guessed, malformed and hostile secrets are 404 (400 for what the hostile-input rules refuse) and consume nothing', async () => {
    const user = await createUser(t, { email: address('guess') });
    const { secret } = await requestLink(user.email);
    const guesses = [
      randomBytes(32).toString('base64url'),
      secret.slice(0, 42),
      `${secret}A`,
      secret.toLowerCase() === secret ? secret.toUpperCase() : secret.toLowerCase(),
      '..%2F..%2Fetc%2Fpasswd',
      "' OR '1'='1",
      'x'.repeat(5000),
      '%F0%9F%92%A9'.repeat(11),
    ];
    for (const g of guesses) {
      const res = await t.http.post(`${REQUEST}${g}/`);
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual(expect.any(Array));
    }
    await t.http.post(`${REQUEST}%00/`).expect(400);
    await t.http.get('/login/email/%00').expect(400);
    expect(await verifiedAt(user.id)).toBeNull(); // wrong links prove nothing
    await complete(secret).expect(201);
  });

  it('refuses hostile request bodies with 400', async () => {
    for (const body of [
      {},
      { email: 'not-an-address' },
      { email: ['a@example.com'] },
      { email: { $ne: null } },
      { email: 'a\u0000@example.com' },
      { email: `${'a'.repeat(300)}@example.com` },
      { email: 'a@example.com', app_name: 'x'.repeat(201) },
    ]) {
      const res = await t.http.post(REQUEST).send(body);
      expect(res.status).toBe(400);
      expect(res.body.errors).toBeDefined();
    }
  });

  it('keeps the link’s secret out of every log line (trace level)', async () => {
    const user = await createUser(t, { email: address('logs') });
    const { link, secret } = await requestLink(user.email);
    await t.http.get(new URL(link).pathname).expect(200);
    await complete(secret).expect(201);
    await complete(secret).expect(419);
    const log = lines.join('');
    expect(log).toContain('email login mail queued for');
    expect(log).not.toContain(secret);
  });
});

describe('email login rate limit', () => {
  it('charges the request and the link to the sign-in budget of the address', async () => {
    const t = await createTestApp({ RATE_LIMIT_SIGNIN_BURST: '2', RATE_LIMIT_SIGNIN_PER_SECOND: '0.001' });
    try {
      await t.http.post(REQUEST).send({ email: 'a@example.com' }).expect(201);
      await t.http.post(`${REQUEST}${randomBytes(32).toString('base64url')}/`).expect(404);
      await t.http.post(REQUEST).send({ email: 'a@example.com' }).expect(429);
      await t.http.post(`${REQUEST}${randomBytes(32).toString('base64url')}/`).expect(429);
    } finally {
      await t.close();
    }
  });
});
