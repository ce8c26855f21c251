import { Module } from '@nestjs/common';
import { PasswordPolicyService } from './password-policy.service.js';

/** The password policy alone, for every feature that sets passwords (users, invitations, resets). */
@Module({ providers: [PasswordPolicyService], exports: [PasswordPolicyService] })
export class PasswordPolicyModule {}
