import type { ConfigOf } from '../../base/config/namespace.js';
import { MAIL_CONFIG } from './mail-config.js';
import { join } from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../base/common/clock.js';
import { backoffMs, PollingWorker } from '../../base/common/polling-loop.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import type { MailConfig } from './mail-config.js';
import { EmlFileTransport, type MailTransport, SmtpTransport } from './mail-transport.js';
import { MailService } from './mail.service.js';
import { type ClaimedMail as Claimed, MailRepository } from './mail.repository.js';

/** Mails claimed per round; a full round starts the next one at once. */
const BATCH = 10;
/** A claim outlives the attempt's timeout by this much; after it, another instance may take the mail. */
const LEASE_MARGIN_MS = 5_000;

/**
 * The mail delivery worker of this instance: drains `mail_outbox` every MAIL_POLL_INTERVAL_MS through SMTP
 * (SMTP_URL), or into `.eml` files under DATA_DIR/mail/ without it. A 4xx answer or a connection error is
 * retried with exponential backoff (MAIL_RETRY_BASE_MS doubling up to MAIL_RETRY_MAX_MS); a 5xx answer,
 * or MAIL_MAX_ATTEMPTS failures, gives the mail up (FAILED, with the error). Only the recipient, the row id
 * and the .eml file name are logged, never the content. With DATA_DIR=memory:// and no SMTP_URL (tests)
 * there is nowhere to deliver to: the worker stays idle and mail waits in the outbox.
 */
@Injectable()
export class MailWorker extends PollingWorker {
  private readonly config: MailConfig;
  private readonly transport: MailTransport | null;

  constructor(
    private readonly repo: MailRepository,
    @Inject(APP_CONFIG) appConfig: BaseConfig,
    @Inject(MAIL_CONFIG.token) mailConfig: ConfigOf<typeof MAIL_CONFIG>,
    private readonly clock: Clock,
    private readonly mail: MailService,
  ) {
    super('mail worker', mailConfig.pollIntervalMs, new Logger('Mail'));
    this.config = mailConfig;
    const dataDir = appConfig.database.dataDir;
    this.transport = this.config.smtpUrl
      ? new SmtpTransport(this.config)
      : dataDir === 'memory://'
        ? null
        : new EmlFileTransport(join(dataDir, 'mail'), this.config.from);
  }

  override onApplicationBootstrap(): void {
    if (!this.transport) {
      this.logger.log('no SMTP_URL and DATA_DIR=memory://: mail stays in the mail_outbox table');
      return;
    }
    if (!this.config.smtpUrl)
      this.logger.log('no SMTP_URL: mail is written as .eml files under DATA_DIR/mail/');
    super.onApplicationBootstrap();
  }

  /** Whether mail leaves the outbox at all (not with DATA_DIR=memory:// and no SMTP_URL). */
  get delivering(): boolean {
    return this.loop.isRunning;
  }

  override async beforeApplicationShutdown(): Promise<void> {
    await super.beforeApplicationShutdown();
    this.transport?.close();
  }

  /** One round of the loop: true when the batch was full (there may be more due right away). */
  protected async round(): Promise<boolean> {
    const claimed = await this.claim();
    await Promise.all(claimed.map((c) => this.attempt(c)));
    return claimed.length === BATCH;
  }

  private async claim(): Promise<Claimed[]> {
    if (!this.transport || this.loop.isStopped) return [];
    const now = this.clock.now();
    const lease = new Date(now.getTime() + this.config.timeoutMs * 3 + LEASE_MARGIN_MS);
    return this.repo.claimDue(now, lease, BATCH);
  }

  private async attempt(c: Claimed): Promise<void> {
    const transport = this.transport as MailTransport;
    let text: string | null;
    let html: string | null;
    try {
      text = this.mail.readBody(c);
      html = this.mail.readHtml(c);
    } catch {
      await this.mail.markFailed(
        this.repo.manager,
        c.id,
        'the sealed body does not open (KEY_ENCRYPTION_SECRET changed?)',
      );
      this.logger.warn(`mail ${c.id} to ${c.to_address} FAILED: its sealed body does not open`);
      return;
    }
    if (text === null) {
      await this.mail.markFailed(this.repo.manager, c.id, 'no body');
      return;
    }
    const outcome = await transport.send({ id: c.id, to: c.to_address, subject: c.subject, text, html });
    if (outcome.ok) {
      await this.mail.markSent(this.repo.manager, c.id, this.clock.now());
      this.logger.log(
        outcome.where
          ? `mail ${c.id} to ${c.to_address} written to ${outcome.where}`
          : `mail ${c.id} sent to ${c.to_address}`,
      );
      return;
    }
    if (outcome.permanent || c.attempts >= this.config.maxAttempts) {
      await this.mail.markFailed(this.repo.manager, c.id, outcome.error);
      this.logger.warn(
        `mail ${c.id} to ${c.to_address} FAILED after ${c.attempts} attempt(s): ${outcome.error}`,
      );
      return;
    }
    const next = new Date(this.clock.now().getTime() + backoffMs(c.attempts, this.config));
    await this.repo.scheduleRetry(c.id, next, outcome.error);
    this.logger.warn(
      `mail ${c.id} to ${c.to_address} not sent (attempt ${c.attempts}), retrying: ${outcome.error}`,
    );
  }
}
