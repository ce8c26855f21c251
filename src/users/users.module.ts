import { Module } from '@nestjs/common';
import { InvitationsModule } from '../invitations/invitations.module.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';

/** Users endpoints (API-CONTRACT §3), including the administrators' side of invitations. */
@Module({
  imports: [InvitationsModule],
  controllers: [UsersController],
  providers: [UsersService],
})
export class UsersModule {}
