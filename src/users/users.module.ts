import { Module } from '@nestjs/common';
import { MailService } from './mail.service.js';
import { UserInvitationsService } from './user-invitations.service.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';

/** Users endpoints (API-CONTRACT §3) and invitations into a domain. */
@Module({
  controllers: [UsersController],
  providers: [UsersService, UserInvitationsService, MailService],
  exports: [MailService],
})
export class UsersModule {}
