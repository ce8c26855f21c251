import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { GroupListQueryDto } from '../groups/dto/group.dto.js';
import { CreateGroupMappingDto, GroupMappingDto, GroupMappingListDto } from './dto/group-mapping.dto.js';
import { GroupLikeBasicListDto } from './dto/team.dto.js';
import { GroupKindsService } from './group-kinds.service.js';
import { GroupLogosService } from './group-logos.service.js';
import { GroupMappingsService } from './group-mappings.service.js';
import { GroupExtrasByIdRoutes } from './group-extras-by-id.routes.js';
import { Route } from '../../base/common/http/route.js';

const mappings = ServiceRoutes<GroupMappingsService>('mappings');
const kinds = ServiceRoutes<GroupKindsService>('kinds');

/**
 * The rest of /v1/groups/: mappings, all/basic, logo, reindex. Its module is mounted before GroupsModule, so
 * these fixed paths come before the groups' /{group_id} routes (Express matches in registration order).
 */
@ApiTags('groups')
@ApiErrors(400)
@Controller('API/users/v1/groups')
export class GroupExtrasController extends mappings.handlers(
  {
    listGroupMappings: mappings.call(
      'list',
      Route.get('mappings', {
        summary: 'Group mappings of the caller’s domain (page style; sort on name, date_created)',
        policy: { roles: ['can_read_groups'] },
        ok: GroupMappingListDto,
      }),
      input.caller,
      input.query(PageQueryDto),
      input.path,
    ),
    createGroupMapping: mappings.call(
      'create',
      Route.post('mappings', {
        summary:
          'Map an identity provider’s group name to a group, team or role group (applied at each single sign-on)',
        policy: { roles: ['can_write_groups'] },
        created: GroupMappingDto,
        errors: [{ 404: 'No such group in this domain', 409: 'The name is already mapped in this domain' }],
      }),
      input.caller,
      input.body(CreateGroupMappingDto),
    ),
    getGroupMapping: mappings.call(
      'get',
      Route.get('mappings/:name', {
        summary: 'One group mapping, by the identity provider’s group name',
        policy: { roles: ['can_read_groups'] },
        ok: GroupMappingDto,
        errors: [404],
      }),
      input.caller,
      input.param('name'),
    ),
    deleteGroupMapping: mappings.call(
      'remove',
      Route.delete('mappings/:name', {
        summary: 'Remove a group mapping (memberships it made stay until the next sign-on)',
        policy: { roles: ['can_write_groups'] },
        noContent: 'Removed',
        errors: [404],
      }),
      input.caller,
      input.param('name'),
    ),
  },
  kinds.handlers(
    {
      listAllGroupsBasic: kinds.handle(
        Route.get('all/basic', {
          summary:
            'Groups, teams and role groups together in the basic form (id, name, kind), for pickers: any member',
          policy: {},
          ok: GroupLikeBasicListDto,
        }),
        (s, c, q, p) => s.basic(['GROUP', 'TEAM', 'ROLE_GROUP'], c, q, p),
        input.caller,
        input.query(GroupListQueryDto),
        input.path,
      ),
    },
    GroupExtrasByIdRoutes,
  ),
) {
  constructor(
    protected readonly mappings: GroupMappingsService,
    protected readonly kinds: GroupKindsService,
    protected readonly logos: GroupLogosService,
  ) {
    super();
  }
}
