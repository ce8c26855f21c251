import { MailOutboxEntity } from '../../src/base/model/mail-outbox.entity.js';
import { PasswordResetEntity } from '../../src/base/model/password-reset.entity.js';
import { createUser } from '../factories/index.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

const FORGOT = '/API/auth/v1/password/forgot/';
const EMAIL_LOGIN = '/API/auth/v1/auth/email/login/';
const LIMIT = 2;

/**
 * At most MAIL_RECIPIENT_LIMIT link mails of one kind per recipient per MAIL_RECIPIENT_WINDOW_SECONDS: past
 * it the request answers exactly as before, but nothing is queued and nothing changes.
 */
describe('per-recipient mail limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ MAIL_RECIPIENT_LIMIT: String(LIMIT), MAIL_RECIPIENT_WINDOW_SECONDS: '900' });
  });
  afterAll(() => t.close());

  const mails = (to: string, kind: string) =>
    t.ds.getRepository(MailOutboxEntity).countBy({ to_address: to, kind });
  /** Moves the recipient's mails out of the window (the database's clock stamps them). */
  const age = (to: string) =>
    t.ds.query(
      `UPDATE mail_outbox SET date_created = date_created - interval '16 minutes' WHERE to_address = $1`,
      [to],
    );

  it('password forgot: the same answer every time, no more than the limit queued, earlier links untouched', async () => {
    const user = await createUser(t);
    const answers = new Set<string>();
    for (let i = 0; i < LIMIT + 3; i++) {
      const res = await t.http.post(FORGOT).send({ email: user.email }).expect(201);
      answers.add(JSON.stringify([res.text, res.headers['content-type'] ?? null]));
    }
    expect(answers.size).toBe(1);
    expect(await mails(user.email, 'password reset')).toBe(LIMIT);
    // no link was minted past the limit: the last mailed one is still the live one
    const links = await t.ds.getRepository(PasswordResetEntity).findBy({ user_id: user.id });
    expect(links).toHaveLength(LIMIT);
    expect(links.filter((l) => l.superseded_at === null)).toHaveLength(1);

    // another recipient is not affected; after the window the first may be mailed again
    const other = await createUser(t);
    await t.http.post(FORGOT).send({ email: other.email }).expect(201);
    expect(await mails(other.email, 'password reset')).toBe(1);
    await age(user.email);
    await t.http.post(FORGOT).send({ email: user.email }).expect(201);
    expect(await mails(user.email, 'password reset')).toBe(LIMIT + 1);
  });

  it('email login: counted per kind, the same answer past the limit', async () => {
    const user = await createUser(t);
    await t.http.post(FORGOT).send({ email: user.email }).expect(201); // another kind does not count
    const answers = new Set<string>();
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await t.http.post(EMAIL_LOGIN).send({ email: user.email }).expect(201);
      answers.add(JSON.stringify([res.text, res.headers['content-type'] ?? null]));
    }
    expect(answers.size).toBe(1);
    expect(await mails(user.email, 'email login')).toBe(LIMIT);
    const live: { n: number }[] = await t.ds.query(
      'SELECT count(*)::int AS n FROM email_login_links WHERE user_id = $1 AND used_at IS NULL',
      [user.id],
    );
    expect(live[0].n).toBe(1);
  });

  it('parallel requests do not slip past the limit', async () => {
    const user = await createUser(t);
    await Promise.all(
      Array.from({ length: 8 }, () => t.http.post(EMAIL_LOGIN).send({ email: user.email }).expect(201)),
    );
    expect(await mails(user.email, 'email login')).toBe(LIMIT);
  });
});
