import { MailOutboxEntity } from '../../src/base/model/mail-outbox.entity.js';
import { MailService } from '../../src/delivery/mail/mail.service.js';
import type { TestApp } from './create-test-app.js';

/** The text of the newest mail queued for `to` (read the way the delivery worker reads it). */
export async function mailedText(t: TestApp, to: string): Promise<string> {
  const [row] = await t.ds
    .getRepository(MailOutboxEntity)
    .find({ where: { to_address: to }, order: { date_created: 'DESC' }, take: 1 });
  if (!row) throw new Error(`no mail queued for ${to}`);
  return t.get(MailService).readBody(row) ?? '';
}

/** The one-time secret of the newest link of the given kind (e.g. "invitation") mailed to `to`. */
export async function mailedSecret(t: TestApp, to: string, kind: string): Promise<string> {
  const text = await mailedText(t, to);
  const m = new RegExp(`${t.config.http.publicBaseUrl}/${kind}/([A-Za-z0-9_-]{43})`).exec(text);
  if (!m) throw new Error(`no ${kind} link in the mail to ${to}`);
  return m[1];
}
