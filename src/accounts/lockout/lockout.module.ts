import { provideConfig } from '../../base/config/namespace.js';
import { LOCKOUT_CONFIG } from './lockout-config.js';
import { Module } from '@nestjs/common';
import { MailModule } from '../../delivery/mail/mail.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { GuessingDefence } from './guessing-defence.js';
import { LockoutRepository } from './lockout.repository.js';

/**
 * The per-account guessing defence (login_attempts): every factor a person proves (password, codes, links)
 * counts its failures here, and an administrator's unlock clears them. Imported by the sign-in features and
 * by users (the unlock) and passwords (the reset).
 */
@Module({
  imports: [MailModule, AuditModule],
  providers: [provideConfig(LOCKOUT_CONFIG), GuessingDefence, LockoutRepository],
  exports: [GuessingDefence],
})
export class LockoutModule {}
