import { Module } from '@nestjs/common';
import { LoginModule } from '../login/login.module.js';
import { MailModule } from '../mail/mail.module.js';
import { PasswordPolicyModule } from '../passwords/password-policy.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { InvitationLinksController } from './invitation-links.controller.js';
import { InvitationLinksService } from './invitation-links.service.js';
import { InvitationsController } from './invitations.controller.js';
import { InvitationsRepository } from './invitations.repository.js';
import { InvitationsService } from './invitations.service.js';

/**
 * Invitations into a domain: issued by its administrators (users service paths), accepted through the link;
 * reusable links for a group (invite/token/request/, invite/register/). Mounted before the users modules.
 */
@Module({
  imports: [MailModule, LoginModule, PasswordPolicyModule, WebhooksModule],
  controllers: [InvitationLinksController, InvitationsController],
  providers: [InvitationsService, InvitationLinksService, InvitationsRepository],
  exports: [InvitationsService],
})
export class InvitationsModule {}
