import { AccessService } from '../../base/common/auth/access.service.js';
import { Module } from '@nestjs/common';
import { GroupsController } from './groups.controller.js';
import { GroupsRepository } from './groups.repository.js';
import { GroupsService } from './groups.service.js';
import { UsersModule } from '../users/users.module.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { AuditModule } from '../../delivery/audit/audit.module.js';

/** Groups endpoints (docs/interface.md, "The users service"): groups carry roles, users belong to groups. */
@Module({
  // the users/ membership path answers the user
  imports: [UsersModule, EventsModule, AuditModule],
  controllers: [GroupsController],
  providers: [GroupsService, GroupsRepository],
  exports: [GroupsService],
})
export class GroupsModule {
  constructor(access: AccessService) {
    access.registerQuery(
      'group',
      'Group',
      "SELECT id FROM groups WHERE id = ANY($1::uuid[]) AND system_domain_id = $2 AND kind = 'GROUP'",
    );
  }
}
