import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { GroupListQueryDto } from '../groups/dto/group.dto.js';
import { CreateGroupMappingDto, GroupMappingDto, GroupMappingListDto } from './dto/group-mapping.dto.js';
import { GroupLikeBasicListDto } from './dto/team.dto.js';
import { GroupKindsService } from './group-kinds.service.js';
import { GroupLogosService } from './group-logos.service.js';
import { GroupMappingsService } from './group-mappings.service.js';
import { GroupExtrasByIdRoutes } from './group-extras-by-id.routes.js';
import { Route } from '../../base/common/http/route.js';

/**
 * The rest of /v1/groups/: mappings, all/basic, logo, reindex. Its module is mounted before GroupsModule, so
 * these fixed paths come before the groups' /{group_id} routes (Express matches in registration order).
 */
@ApiTags('groups')
@ApiErrors(400)
@Controller('API/users/v1/groups')
export class GroupExtrasController extends GroupExtrasByIdRoutes {
  constructor(
    protected readonly mappings: GroupMappingsService,
    private readonly kinds: GroupKindsService,
    protected readonly logos: GroupLogosService,
  ) {
    super();
  }

  @Route.get('mappings', {
    summary: 'Group mappings of the caller’s domain (page style; sort on name, date_created)',
    policy: { roles: ['can_read_groups'] },
    ok: GroupMappingListDto,
  })
  listGroupMappings(@Query() q: PageQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.mappings.list(caller, q, req.path) as Promise<GroupMappingListDto>;
  }

  @Route.post('mappings', {
    summary:
      'Map an identity provider’s group name to a group, team or role group (applied at each single sign-on)',
    policy: { roles: ['can_write_groups'] },
    created: GroupMappingDto,
    errors: [{ 404: 'No such group in this domain', 409: 'The name is already mapped in this domain' }],
  })
  createGroupMapping(@Body() body: CreateGroupMappingDto, @Caller() caller: AuthContext) {
    return this.mappings.create(caller, body);
  }

  @Route.get('mappings/:name', {
    summary: 'One group mapping, by the identity provider’s group name',
    policy: { roles: ['can_read_groups'] },
    ok: GroupMappingDto,
    errors: [404],
  })
  getGroupMapping(@Param('name') name: string, @Caller() caller: AuthContext) {
    return this.mappings.get(caller, name);
  }

  @Route.delete('mappings/:name', {
    summary: 'Remove a group mapping (memberships it made stay until the next sign-on)',
    policy: { roles: ['can_write_groups'] },
    noContent: 'Removed',
    errors: [404],
  })
  deleteGroupMapping(@Param('name') name: string, @Caller() caller: AuthContext): Promise<void> {
    return this.mappings.remove(caller, name);
  }

  @Route.get('all/basic', {
    summary:
      'Groups, teams and role groups together in the basic form (id, name, kind), for pickers: any member',
    policy: {},
    ok: GroupLikeBasicListDto,
  })
  listAllGroupsBasic(@Query() q: GroupListQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.kinds.basic(['GROUP', 'TEAM', 'ROLE_GROUP'], caller, q, req.path);
  }
}
