import { Module } from '@nestjs/common';
import { AccessService } from '../../base/common/auth/access.service.js';
import { GroupsModule } from '../groups/groups.module.js';
import { UsersModule } from '../users/users.module.js';
import { EventsModule } from '../../delivery/events/events.module.js';
import { GroupExtrasController } from './group-extras.controller.js';
import { GroupKindsService } from './group-kinds.service.js';
import { GroupLogosService } from './group-logos.service.js';
import { GroupMappingsService } from './group-mappings.service.js';
import { ImageBodyInterceptor } from './image-upload.interceptor.js';
import { RoleGroupsController } from './role-groups.controller.js';
import { TeamsController } from './teams.controller.js';
import { TeamsRepository } from './teams.repository.js';

/**
 * The rest of the users service's grouping (issue 21): teams, role groups, group mappings, group logos and
 * reindex, groups/all/basic. Mounted before GroupsModule (feature-modules.ts) so its fixed paths under
 * /v1/groups/ come before the groups' /{group_id} routes.
 */
@Module({
  imports: [UsersModule, GroupsModule, EventsModule],
  controllers: [GroupExtrasController, TeamsController, RoleGroupsController],
  providers: [
    GroupKindsService,
    GroupLogosService,
    GroupMappingsService,
    ImageBodyInterceptor,
    TeamsRepository,
  ],
})
export class TeamsModule {
  constructor(access: AccessService) {
    access.registerQuery(
      'team',
      'Team',
      "SELECT id FROM groups WHERE id = ANY($1::uuid[]) AND system_domain_id = $2 AND kind = 'TEAM'",
    );
    access.registerQuery(
      'role_group',
      'Role group',
      "SELECT id FROM groups WHERE id = ANY($1::uuid[]) AND system_domain_id = $2 AND kind = 'ROLE_GROUP'",
    );
  }
}
