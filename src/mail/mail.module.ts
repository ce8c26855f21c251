import { Module } from '@nestjs/common';
import { MailService } from './mail.service.js';

/** The mail outbox, for every feature that mails someone (invitations today; sign-in links and codes next). */
@Module({ providers: [MailService], exports: [MailService] })
export class MailModule {}
