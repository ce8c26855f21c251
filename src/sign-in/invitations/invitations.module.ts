import { Module } from '@nestjs/common';
import { LoginModule } from '../login/login.module.js';
import { MailModule } from '../../delivery/mail/mail.module.js';
import { PasswordPolicyModule } from '../../accounts/passwords/password-policy.module.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { InvitationLinksController } from './invitation-links.controller.js';
import { InvitationLinksService } from './invitation-links.service.js';
import { InvitationsController } from './invitations.controller.js';
import { InvitationsRepository } from './invitations.repository.js';
import { InvitationsService } from './invitations.service.js';
import { UserInvitationsController } from './user-invitations.controller.js';

/**
 * Invitations into a domain: issued by its administrators (users service paths), accepted through the link;
 * reusable links for a group (invite/token/request/, invite/register/). Mounted before the users modules.
 */
@Module({
  imports: [MailModule, LoginModule, PasswordPolicyModule, EventsModule, AuditModule],
  controllers: [InvitationLinksController, UserInvitationsController, InvitationsController],
  providers: [InvitationsService, InvitationLinksService, InvitationsRepository],
  exports: [InvitationsService],
})
export class InvitationsModule {}
