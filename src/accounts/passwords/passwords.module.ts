import { provideConfig } from '../../base/config/namespace.js';
import { PASSWORDS_CONFIG } from './passwords-config.js';
import { Module } from '@nestjs/common';
import { LockoutModule } from '../lockout/lockout.module.js';
import { MailModule } from '../../delivery/mail/mail.module.js';
import { PasswordPolicyModule } from './password-policy.module.js';
import { PasswordsController } from './passwords.controller.js';
import { PasswordsService } from './passwords.service.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';

/** Password reset and the domains' PasswordChecks (the policy itself: PasswordPolicyModule). */
@Module({
  imports: [MailModule, PasswordPolicyModule, LockoutModule, AuditModule],
  controllers: [PasswordsController],
  providers: [provideConfig(PASSWORDS_CONFIG), PasswordsService],
})
export class PasswordsModule {}
