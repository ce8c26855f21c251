import { randomUUID } from 'node:crypto';
import { MailOutboxEntity } from '../../src/base/model/mail-outbox.entity.js';
import { MailService } from '../../src/delivery/mail/mail.service.js';
import { createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';

/** Mail bodies carry one-time links: sealed at rest, opened only for delivery, erased once delivered. */
describe('mail outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Invites a fresh address; its outbox row. */
  async function invitationMail(prefix: string): Promise<MailOutboxEntity> {
    const admin = await createUser(t, { isAdmin: true });
    const to = `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
    await t.http
      .post('/API/users/v1/users/invite/')
      .set(bearer((await tokenFor(t, admin)).token))
      .send({ email: to })
      .expect(201);
    return t.ds.getRepository(MailOutboxEntity).findOneByOrFail({ to_address: to });
  }

  it('stores no link in clear, gives it back to the worker, and keeps nothing after delivery', async () => {
    const row = await invitationMail('mail');
    const raw = JSON.stringify(await t.ds.query('SELECT * FROM mail_outbox WHERE id = $1', [row.id]));
    expect(raw).not.toContain('/invitation/');
    expect(raw).not.toContain('invited you');
    const mail = t.get(MailService);
    const body = mail.readBody(row) as string;
    expect(body).toMatch(new RegExp(`${t.config.http.publicBaseUrl}/invitation/[A-Za-z0-9_-]{43}`));

    await mail.markSent(t.ds.manager, row.id);
    const sent = await t.ds.getRepository(MailOutboxEntity).findOneByOrFail({ id: row.id });
    expect(sent).toMatchObject({ status: 'SENT', body: null, sent_at: expect.any(Date) });
    expect(mail.readBody(sent)).toBeNull();
  });

  it('a sealed body that was tampered with does not open', async () => {
    const row = await invitationMail('tamper');
    const body = row.body as string;
    // change the second-to-last character (the one replaced, not the last, decides the replacement:
    // otherwise one run in 64 "flipped" an A into an A and the test saw an untouched body)
    const flipped = body.slice(0, -2) + (body.at(-2) === 'A' ? 'B' : 'A') + body.slice(-1);
    expect(flipped).not.toBe(body);
    expect(() => t.get(MailService).readBody({ body: flipped })).toThrow();
  });

  it('seals, at start, bodies queued in clear by an earlier version', async () => {
    const id = randomUUID();
    await t.ds.query(
      `INSERT INTO mail_outbox (id, to_address, subject, body) VALUES ($1, 'old@example.com', 's', 'link https://x/invitation/secret')`,
      [id],
    );
    await t.get(MailService).onModuleInit();
    const [row] = await t.ds.query('SELECT body FROM mail_outbox WHERE id = $1', [id]);
    expect(row.body).not.toContain('secret');
    expect(t.get(MailService).readBody(row)).toBe('link https://x/invitation/secret');
  });
});
