import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import {
  CreateGroupDto,
  GroupBasicListDto,
  GroupDto,
  GroupListDto,
  GroupListQueryDto,
  UpdateGroupDto,
} from './dto/group.dto.js';
import { GroupsService } from './groups.service.js';
import { GROUP_WRITE, groupAccess, GroupMembershipRoutes } from './group-membership.routes.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
const UPDATE = 'Update a group (members’ roles change on their next request)';

const edit = PutAndPatch({
  path: ':group_id',
  policy: GROUP_WRITE,
  ok: GroupDto,
  errors: [404, { 409: 'The name is taken in this domain' }],
  put: `${UPDATE}. The same as PATCH: any subset of the fields; read-only fields are ignored`,
  patch: UPDATE,
});

@ApiTags('groups')
@ApiErrors(400)
@Controller('API/users/v1/groups')
export class GroupsController extends GroupMembershipRoutes {
  constructor(protected readonly groups: GroupsService) {
    super();
  }

  @Route.get({
    summary: 'Groups of the caller’s domain (page style; query filters the name; sort on name, date_created)',
    policy: { roles: ['can_read_groups'] },
    ok: GroupListDto,
  })
  listGroups(
    @Query() q: GroupListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<GroupListDto> {
    return this.groups.list(caller, q, req.path);
  }

  @Route.post({
    summary: 'Create a group carrying roles (only roles the caller holds)',
    policy: { roles: ['can_write_groups'] },
    created: GroupDto,
    errors: [{ 409: 'The name is taken in this domain' }],
  })
  createGroup(@Body() body: CreateGroupDto, @Caller() caller: AuthContext): Promise<GroupDto> {
    return this.groups.create(caller, body);
  }

  // fixed paths before /{group_id}: Express matches in registration order
  @Route.get('basic', {
    summary:
      'Groups of the caller’s domain in the basic form (id, name), for pickers: any member may list them (page style; query and sort as on the full list)',
    policy: {},
    ok: GroupBasicListDto,
  })
  listGroupsBasic(
    @Query() q: GroupListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<GroupBasicListDto> {
    return this.groups.basicList(caller, q, req.path);
  }

  @Route.get(':group_id', {
    summary: 'One group, with its member ids',
    policy: { roles: ['can_read_groups'], access: groupAccess },
    ok: GroupDto,
    errors: [404],
  })
  getGroup(@Param('group_id', uuid) id: string, @Caller() caller: AuthContext): Promise<GroupDto> {
    return this.groups.get(caller, id);
  }

  @edit.both('replaceGroup')
  updateGroup(
    @Param('group_id', uuid) id: string,
    @Body() body: UpdateGroupDto,
    @Caller() caller: AuthContext,
  ): Promise<GroupDto> {
    return this.groups.update(caller, id, body);
  }

  @Route.delete(':group_id', {
    summary: 'Delete a group; its members lose its roles',
    policy: { roles: ['can_delete_groups'], access: groupAccess },
    noContent: 'Deleted',
    errors: [404],
  })
  deleteGroup(@Param('group_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.groups.remove(caller, id);
  }
}
