import { provideConfig } from '../../base/config/namespace.js';
import { MAIL_CONFIG } from './mail-config.js';
import { Module } from '@nestjs/common';
import { MailWorker } from './mail-worker.service.js';
import { MailRepository } from './mail.repository.js';
import { MailService } from './mail.service.js';

/**
 * The mail outbox, for every feature that mails someone (invitations, sign-in links, codes), and the worker
 * that delivers it (SMTP, or .eml files).
 */
@Module({
  providers: [provideConfig(MAIL_CONFIG), MailService, MailRepository, MailWorker],
  exports: [MailService],
})
export class MailModule {}
