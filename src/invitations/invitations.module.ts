import { Module } from '@nestjs/common';
import { SystemDomainsModule } from '../system-domains/system-domains.module.js';
import { MailModule } from '../mail/mail.module.js';
import { InvitationsController } from './invitations.controller.js';
import { InvitationsService } from './invitations.service.js';

/** Invitations into a domain: issued by its administrators (users service paths), accepted through the link. */
@Module({
  imports: [MailModule, SystemDomainsModule],
  controllers: [InvitationsController],
  providers: [InvitationsService],
  exports: [InvitationsService],
})
export class InvitationsModule {}
