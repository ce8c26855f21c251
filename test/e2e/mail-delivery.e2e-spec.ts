import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { simpleParser } from 'mailparser';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app/app.factory.js';
import { loadConfig } from '../../src/app/config.js';
import { MailOutboxEntity } from '../../src/base/model/mail-outbox.entity.js';
import { MailService } from '../../src/delivery/mail/mail.service.js';
import { MailWorker } from '../../src/delivery/mail/mail-worker.service.js';
import { createUser } from '../factories/index.js';
import { bearer, tokenFor } from '../utils/auth.js';
import { createTestApp, type TestApp } from '../utils/create-test-app.js';
import { linkIn, SmtpSink } from '../utils/smtp.js';
import { createTestDatabase } from '../utils/test-database.js';
import { waitFor } from '../utils/wait-for.js';

const FAST = {
  MAIL_POLL_INTERVAL_MS: '20',
  MAIL_RETRY_BASE_MS: '20',
  MAIL_RETRY_MAX_MS: '60',
  MAIL_TIMEOUT_MS: '3000',
  MAIL_MAX_ATTEMPTS: '3',
};

const address = (p: string) => `${p}-${randomUUID().slice(0, 8)}@example.com`;

async function queue(ds: DataSource, mail: MailService, to: string, body = 'hello'): Promise<void> {
  await ds.transaction((em) => mail.queue(em, { kind: 'test', to, subject: `to ${to}`, body }));
}

async function row(t: { ds: DataSource }, to: string, status?: string): Promise<MailOutboxEntity> {
  return waitFor(async () => {
    const r = await t.ds.getRepository(MailOutboxEntity).findOneBy({ to_address: to });
    return r && (!status || r.status === status) ? r : undefined;
  });
}

/** The delivery worker: real SMTP (an in-process server), retries, permanent failures, .eml files. */
describe('mail delivery through SMTP', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return rest.length > 0 && typeof rest[rest.length - 1] === 'function'
        ? ((rest[rest.length - 1] as () => void)(), true)
        : true;
    }) as typeof process.stdout.write;
    t = await createTestApp({
      ...FAST,
      SMTP_URL: smtp.url,
      LOG_LEVEL: 'info',
      MAIL_FROM: 'Portcullis <auth@portcullis.test>',
    });
  });
  afterAll(async () => {
    process.stdout.write = write;
    await t.close();
    await smtp.close();
  });
  afterEach(() => smtp.refuseAll(null));

  it('delivers an invitation with a text and an escaped HTML part, and the link in it works', async () => {
    const admin = await createUser(t, { isAdmin: true });
    await t.ds
      .getRepository('users')
      .update({ id: admin.id }, { first_name: '<b>Mallory</b>', last_name: '"&' });
    const to = address('invited');
    await t.http
      .post('/API/users/v1/users/invite/')
      .set(bearer((await tokenFor(t, admin)).token))
      .send({ email: to })
      .expect(201);
    const [mail] = await smtp.mailFor(to);
    expect(mail.from).toBe('auth@portcullis.test');
    expect(mail.text).toContain('<b>Mallory</b> "& invited you');
    expect(mail.html).toContain('&lt;b&gt;Mallory&lt;/b&gt; &quot;&amp; invited you');
    expect(mail.html).not.toContain('<b>Mallory');
    const link = linkIn(mail, `${t.config.http.publicBaseUrl}/invitation/`);
    expect(mail.html).toContain(`href="${link}"`);
    const secret = link.split('/').pop() as string;
    const verify = await t.http.get(`/API/auth/v1/invitation/${secret}/`).expect(200);
    expect(verify.body.new_user_email).toBe(to);

    const sent = await row(t, to, 'SENT');
    expect(sent).toMatchObject({ body: null, html_body: null, attempts: 1, last_error: null });
    expect(sent.sent_at).toBeInstanceOf(Date);
    // logged: the recipient, never the link
    const log = lines.join('');
    expect(log).toContain(`sent to ${to}`);
    expect(log).not.toContain(secret);
  });

  it('sends each mail once, with its outbox id as Message-ID', async () => {
    const to = address('once');
    await queue(t.ds, t.get(MailService), to);
    const r = await row(t, to, 'SENT');
    await t.get(MailWorker).afterRounds(2); // a second sending would have happened by now
    const got = smtp.received.filter((m) => m.to.includes(to));
    expect(got).toHaveLength(1);
    expect(got[0].messageId).toContain(r.id);
  });

  it('retries a temporary refusal (4xx) with backoff, then delivers', async () => {
    smtp.refuseNext(451, 2);
    const to = address('retry');
    await queue(t.ds, t.get(MailService), to, 'retried body');
    const [mail] = await smtp.mailFor(to);
    expect(mail.text.trim()).toBe('retried body');
    const r = await row(t, to, 'SENT');
    expect(r.attempts).toBe(3);
    expect(r.last_error).toBeNull();
    expect(lines.join('')).toMatch(/not sent \(attempt 1\), retrying: SMTP 451/);
  });

  it('gives a mail up at once on a permanent refusal (5xx), and records the error', async () => {
    smtp.refuseAll(550);
    const to = address('rejected');
    await queue(t.ds, t.get(MailService), to, 'secret body 550');
    const r = await row(t, to, 'FAILED');
    expect(r.attempts).toBe(1);
    expect(r.last_error).toMatch(/^SMTP 550/);
    expect(r.body).toBeNull();
    expect(lines.join('')).not.toContain('secret body 550');
  });

  it('gives a mail up after MAIL_MAX_ATTEMPTS temporary refusals', async () => {
    smtp.refuseAll(421);
    const to = address('exhausted');
    await queue(t.ds, t.get(MailService), to);
    const r = await row(t, to, 'FAILED');
    expect(r.attempts).toBe(3);
    expect(r.last_error).toMatch(/^SMTP 421/);
  });

  it('retries while the SMTP server is unreachable', async () => {
    const down = await SmtpSink.start();
    const url = down.url;
    await down.close();
    const t2 = await createTestApp({ ...FAST, SMTP_URL: url, MAIL_MAX_ATTEMPTS: '2' });
    try {
      const to = address('unreachable');
      await queue(t2.ds, t2.get(MailService), to);
      const r = await row(t2, to, 'FAILED');
      expect(r.attempts).toBe(2);
      expect(r.last_error).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
    } finally {
      await t2.close();
    }
  });
});

describe('mail delivery without SMTP_URL', () => {
  it('writes each mail as an .eml file under DATA_DIR/mail/ and logs the file name only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portcullis-mail-'));
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return rest.length > 0 && typeof rest[rest.length - 1] === 'function'
        ? ((rest[rest.length - 1] as () => void)(), true)
        : true;
    }) as typeof process.stdout.write;
    const t = await createTestApp({ ...FAST, DATA_DIR: dir, LOG_LEVEL: 'info' });
    try {
      const to = address('file');
      await queue(t.ds, t.get(MailService), to, 'link https://example.test/secret-in-file');
      await row(t, to, 'SENT');
      const files = readdirSync(join(dir, 'mail')).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      const parsed = await simpleParser(readFileSync(join(dir, 'mail', files[0])));
      expect(parsed.text?.trim()).toBe('link https://example.test/secret-in-file');
      expect((parsed.to as { text: string }).text).toBe(to);
      const log = lines.join('');
      expect(log).toContain(files[0]);
      expect(log).not.toContain('secret-in-file');
    } finally {
      process.stdout.write = write;
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with DATA_DIR=memory:// mail stays in the outbox (tests read it there)', async () => {
    const t = await createTestApp(FAST);
    try {
      const to = address('memory');
      await queue(t.ds, t.get(MailService), to);
      expect(t.get(MailWorker).delivering).toBe(false);
      const r = await t.ds.getRepository(MailOutboxEntity).findOneByOrFail({ to_address: to });
      expect(r).toMatchObject({ status: 'PENDING', attempts: 0 });
    } finally {
      await t.close();
    }
  });
});

/** Two instances on one PostgreSQL database drain one outbox: each mail reaches the server once. */
(process.env.DATABASE_URL ? describe : describe.skip)('mail delivery across instances (PostgreSQL)', () => {
  let a: NestExpressApplication;
  let b: NestExpressApplication;
  let drop: () => Promise<void>;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await SmtpSink.start();
    const db = await createTestDatabase();
    drop = db.drop;
    const config = loadConfig({
      DATABASE_URL: db.url as string,
      KEY_ENCRYPTION_SECRET: 'shared-key-encryption-secret-0123456789',
      BOOTSTRAP_ADMIN_EMAIL: 'admin@mail.test',
      BOOTSTRAP_ADMIN_PASSWORD: 'mail-instances-password',
      LOG_LEVEL: 'silent',
      SMTP_URL: smtp.url,
      ...FAST,
      MAIL_POLL_INTERVAL_MS: '10',
    });
    [a, b] = await Promise.all([createApp(config), createApp(config)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await smtp?.close();
    await drop?.();
  });

  it('each mail is claimed by one instance only', async () => {
    const ds = a.get(DataSource);
    const mail = a.get(MailService);
    const tos = Array.from({ length: 40 }, () => address('both'));
    await ds.transaction(async (em) => {
      for (const to of tos) await mail.queue(em, { kind: 'test', to, subject: 's', body: 'b' });
    });
    await waitFor(async () => {
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM mail_outbox WHERE status = 'SENT'`);
      return n === tos.length;
    }, 20_000);
    // both instances have looked again since: a second claim of any mail would have been sent by now
    await Promise.all([a.get(MailWorker).afterRounds(2), b.get(MailWorker).afterRounds(2)]);
    for (const to of tos) expect(smtp.received.filter((m) => m.to.includes(to))).toHaveLength(1);
    expect(smtp.received).toHaveLength(tos.length);
  });
});
