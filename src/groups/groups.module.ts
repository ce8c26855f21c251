import { AccessService } from '../common/auth/access.service.js';
import { Module } from '@nestjs/common';
import { GroupsController } from './groups.controller.js';
import { GroupsService } from './groups.service.js';

/** Groups endpoints (API-CONTRACT §3): groups carry roles, users belong to groups. */
@Module({
  controllers: [GroupsController],
  providers: [GroupsService],
})
export class GroupsModule {
  constructor(access: AccessService) {
    access.registerQuery(
      'group',
      'Group',
      'SELECT id FROM groups WHERE id = ANY($1::uuid[]) AND system_domain_id = $2',
    );
  }
}
