import { Module } from '@nestjs/common';
import { LoginModule } from '../login/login.module.js';
import { MailModule } from '../mail/mail.module.js';
import { PasswordPolicyModule } from '../passwords/password-policy.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { InvitationsController } from './invitations.controller.js';
import { InvitationsService } from './invitations.service.js';

/** Invitations into a domain: issued by its administrators (users service paths), accepted through the link. */
@Module({
  imports: [MailModule, LoginModule, PasswordPolicyModule, WebhooksModule],
  controllers: [InvitationsController],
  providers: [InvitationsService],
  exports: [InvitationsService],
})
export class InvitationsModule {}
