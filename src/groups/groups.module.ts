import { Module } from '@nestjs/common';
import { GroupsController } from './groups.controller.js';
import { GroupsService } from './groups.service.js';

/** Groups endpoints (API-CONTRACT §3): groups carry roles, users belong to groups. */
@Module({
  controllers: [GroupsController],
  providers: [GroupsService],
})
export class GroupsModule {}
