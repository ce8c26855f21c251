import { AccessService } from '../common/auth/access.service.js';
import { Module } from '@nestjs/common';
import { GroupsController } from './groups.controller.js';
import { GroupsRepository } from './groups.repository.js';
import { GroupsService } from './groups.service.js';
import { UsersModule } from '../users/users.module.js';
import { WebhooksModule } from '../webhooks/webhooks.module.js';

/** Groups endpoints (docs/interface.md, "The users service"): groups carry roles, users belong to groups. */
@Module({
  // the users/ membership path answers the user
  imports: [UsersModule, WebhooksModule],
  controllers: [GroupsController],
  providers: [GroupsService, GroupsRepository],
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
