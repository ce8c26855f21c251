import type { ConfigOf } from '../../base/config/namespace.js';
import { MAIL_CONFIG } from './mail-config.js';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { KeyEncryption } from '../../base/keys/key-encryption.js';
import type { MailOutboxEntity } from '../../base/model/mail-outbox.entity.js';
import { MailRepository } from './mail.repository.js';

export interface OutgoingMail {
  /** What the mail is about, for the log line ("invitation mail queued for …"). */
  kind: string;
  to: string;
  subject: string;
  /** The plain-text part. */
  body: string;
  /** The HTML part (every value in it escaped by the template, see mail-templates.ts); optional. */
  html?: string;
}

/** Marks a sealed body; anything else in the column is a body written before bodies were sealed. */
const SEALED = 'sealed:v1:';

/**
 * Queues mail in the outbox, inside the caller's transaction so that a rolled-back change sends nothing.
 * Bodies carry one-time links: they are sealed with a key of their own derived from the service secret
 * (a database dump holds no working link), opened only by the delivery worker (`readBody`), and erased when
 * the mail has been delivered (`markSent`). Only the kind and recipient are ever logged.
 */
@Injectable()
export class MailService implements OnModuleInit {
  private readonly logger = new Logger(MailService.name);
  private readonly sealer: KeyEncryption;

  constructor(
    private readonly repo: MailRepository,
    @Inject(APP_CONFIG) config: BaseConfig,
    @Inject(MAIL_CONFIG.token) private readonly mailConfig: ConfigOf<typeof MAIL_CONFIG>,
  ) {
    this.sealer = KeyEncryption.fromConfig(config, 'mail-outbox-encryption');
  }

  /** Seals bodies queued before bodies were sealed (once, at start; a no-op afterwards). */
  async onModuleInit(): Promise<void> {
    for (const r of await this.repo.unsealedBodies()) {
      await this.repo.replaceBody(r.id, this.seal(r.body), r.body);
    }
  }

  /**
   * Whether one more mail of `kind` may go to `to`: at most MAIL_RECIPIENT_LIMIT per
   * MAIL_RECIPIENT_WINDOW_SECONDS, so nobody can flood a mailbox with links through a public route. Senders of
   * link mails ask before they mint the link, in the transaction that queues it, and on a refusal answer as
   * they always do but change nothing (no oracle, and the links already mailed keep working). The check and
   * the insert are serialised per recipient and kind (an advisory lock until the transaction ends).
   */
  async recipientAllows(em: EntityManager, kind: string, to: string): Promise<boolean> {
    const { recipientLimit, recipientWindowSeconds } = this.mailConfig;
    await this.repo.lockRecipient(em, `mail-recipient:${kind}:${to}`);
    // the database's clock, which stamps date_created
    const n = await this.repo.recentCount(em, to, kind, recipientWindowSeconds);
    if (n < recipientLimit) return true;
    this.logger.warn(`${kind} mail for ${to} not queued: ${n} in the last ${recipientWindowSeconds} s`);
    return false;
  }

  async queue(em: EntityManager, mail: OutgoingMail): Promise<void> {
    await this.repo.insert(em, {
      to_address: mail.to,
      subject: mail.subject,
      kind: mail.kind,
      body: this.seal(mail.body),
      html_body: mail.html === undefined ? null : this.seal(mail.html),
    });
    this.logger.log(`${mail.kind} mail queued for ${mail.to}`);
  }

  /** The body in clear, for the delivery worker; null once delivered. */
  readBody(row: Pick<MailOutboxEntity, 'body'>): string | null {
    if (row.body === null) return null;
    return row.body.startsWith(SEALED) ? this.sealer.decrypt(row.body.slice(SEALED.length)) : row.body;
  }

  /** The HTML part in clear, for the delivery worker; null when the mail has none or was delivered. */
  readHtml(row: Pick<MailOutboxEntity, 'html_body'>): string | null {
    return this.readBody({ body: row.html_body });
  }

  /** Delivered: the body goes, so nothing secret is kept after delivery. */
  async markSent(em: EntityManager, id: string, at: Date = new Date()): Promise<void> {
    await this.repo.markSent(em, id, at);
  }

  /** Given up (a permanent SMTP refusal, or too many attempts): the body goes too, the error stays. */
  async markFailed(em: EntityManager, id: string, error: string): Promise<void> {
    await this.repo.markFailed(em, id, error);
  }

  private seal(body: string): string {
    return SEALED + this.sealer.encrypt(body);
  }
}
