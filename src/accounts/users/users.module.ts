import { AccessService } from '../../base/common/auth/access.service.js';
import { Module } from '@nestjs/common';
import { LockoutModule } from '../lockout/lockout.module.js';
import { PasswordPolicyModule } from '../passwords/password-policy.module.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';
import { UsersController } from './users.controller.js';
import { UsersRepository } from './users.repository.js';
import { UsersService } from './users.service.js';
import { UserUnlockService } from './user-unlock.service.js';

/** Users endpoints (docs/interface.md, "The users service"); the administrators' side of invitations is InvitationsModule's. */
@Module({
  imports: [LockoutModule, PasswordPolicyModule, EventsModule, AuditModule],
  controllers: [UsersController],
  providers: [UsersRepository, UsersService, UserUnlockService],
  exports: [UsersService],
})
export class UsersModule {
  constructor(access: AccessService) {
    access.registerQuery(
      'user',
      'User',
      'SELECT user_id AS id FROM user_system_domains WHERE user_id = ANY($1::uuid[]) AND system_domain_id = $2',
    );
  }
}
