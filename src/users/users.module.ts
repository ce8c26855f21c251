import { AccessService } from '../common/auth/access.service.js';
import { Module } from '@nestjs/common';
import { InvitationsModule } from '../invitations/invitations.module.js';
import { LoginModule } from '../login/login.module.js';
import { PasswordPolicyModule } from '../passwords/password-policy.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';
import { UsersController } from './users.controller.js';
import { UsersRepository } from './users.repository.js';
import { UsersService } from './users.service.js';
import { UserUnlockService } from './user-unlock.service.js';

/** Users endpoints (docs/interface.md, "The users service"), with the administrators' side of invitations. */
@Module({
  imports: [InvitationsModule, LoginModule, PasswordPolicyModule, WebhooksModule],
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
