import { Module } from '@nestjs/common';
import { LoginModule } from '../login/login.module.js';
import { MailModule } from '../mail/mail.module.js';
import { PasswordPolicyModule } from './password-policy.module.js';
import { PasswordsController } from './passwords.controller.js';
import { PasswordsService } from './passwords.service.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';

/** Password reset and the domains' PasswordChecks (the policy itself: PasswordPolicyModule). */
@Module({
  imports: [MailModule, PasswordPolicyModule, LoginModule, WebhooksModule],
  controllers: [PasswordsController],
  providers: [PasswordsService],
})
export class PasswordsModule {}
