import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { MailOutboxEntity } from './mail-outbox.entity.js';

export interface OutgoingMail {
  /** What the mail is about, for the log line ("invitation mail queued for …"). */
  kind: string;
  to: string;
  subject: string;
  body: string;
}

/**
 * Queues mail in the outbox, inside the caller's transaction so that a rolled-back change sends nothing.
 * There is no sender yet; a worker will deliver PENDING rows. Bodies carry one-time links, so only the
 * kind and recipient are ever logged.
 */
@Injectable()
export class MailService {
  private readonly logger = new Logger(MailService.name);

  async queue(em: EntityManager, mail: OutgoingMail): Promise<void> {
    await em
      .getRepository(MailOutboxEntity)
      .insert({ to_address: mail.to, subject: mail.subject, body: mail.body, status: 'PENDING' });
    this.logger.log(`${mail.kind} mail queued for ${mail.to}`);
  }
}
