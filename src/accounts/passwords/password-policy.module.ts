import { Module } from '@nestjs/common';
import { PasswordPolicyService } from './password-policy.service.js';
import { PasswordsRepository } from './passwords.repository.js';

/** The password policy alone, for every feature that sets passwords (users, invitations, resets). */
@Module({
  providers: [PasswordPolicyService, PasswordsRepository],
  exports: [PasswordPolicyService, PasswordsRepository],
})
export class PasswordPolicyModule {}
