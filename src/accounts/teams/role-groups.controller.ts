import { UserDto } from '../users/dto/user.dto.js';
import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { GroupListQueryDto } from '../groups/dto/group.dto.js';
import {
  CreateRoleGroupDto,
  GroupLikeBasicListDto,
  RoleGroupDto,
  RoleGroupListDto,
  UpdateRoleGroupDto,
} from './dto/team.dto.js';
import { ROLE_GROUP } from './group-kind.js';
import { GroupKindsService } from './group-kinds.service.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
const access = { entity: 'role_group', param: 'role_group_id' };
const TAKEN = 'The name is taken among the domain’s role groups';
const HELD = 'only roles the caller holds; members’ roles change on their next request';

const edit = PutAndPatch({
  path: ':role_group_id',
  policy: { roles: ['can_write_groups'], access },
  ok: RoleGroupDto,
  errors: [404, { 409: TAKEN }],
  put: `Update a role group (as PATCH: any subset; ${HELD})`,
  patch: `Update a role group (${HELD})`,
});

/** Role groups (published RoleGroup): bundles of roles; their members hold those roles in the domain. */
@ApiTags('role groups')
@ApiErrors(400)
@Controller('API/users/v1/role_groups')
export class RoleGroupsController {
  constructor(private readonly kinds: GroupKindsService) {}

  @Route.get({
    summary:
      'Role groups of the caller’s domain (page style; query filters the name; sort on name, date_created)',
    policy: { roles: ['can_read_groups'] },
    ok: RoleGroupListDto,
  })
  listRoleGroups(@Query() q: GroupListQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.kinds.list(ROLE_GROUP, caller, q, req.path) as Promise<RoleGroupListDto>;
  }

  @Route.post({
    summary: `Create a role group carrying roles (${HELD})`,
    policy: { roles: ['can_write_groups'] },
    created: RoleGroupDto,
    errors: [{ 409: TAKEN }],
  })
  createRoleGroup(@Body() body: CreateRoleGroupDto, @Caller() caller: AuthContext) {
    return this.kinds.create(ROLE_GROUP, caller, body) as Promise<RoleGroupDto>;
  }

  // fixed paths before /{role_group_id}
  @Route.get('basic', {
    summary: 'Role groups in the basic form (id, name, kind), for pickers: any member may list them',
    policy: {},
    ok: GroupLikeBasicListDto,
  })
  listRoleGroupsBasic(@Query() q: GroupListQueryDto, @Caller() caller: AuthContext, @Req() req: Request) {
    return this.kinds.basic(['ROLE_GROUP'], caller, q, req.path);
  }

  @Route.get(':role_group_id', {
    summary: 'One role group, with its member ids',
    policy: { roles: ['can_read_groups'], access },
    ok: RoleGroupDto,
    errors: [404],
  })
  getRoleGroup(@Param('role_group_id', uuid) id: string, @Caller() caller: AuthContext) {
    return this.kinds.get(ROLE_GROUP, caller, id) as Promise<RoleGroupDto>;
  }

  @edit.both('replaceRoleGroup')
  updateRoleGroup(
    @Param('role_group_id', uuid) id: string,
    @Body() body: UpdateRoleGroupDto,
    @Caller() caller: AuthContext,
  ) {
    return this.kinds.update(ROLE_GROUP, caller, id, body) as Promise<RoleGroupDto>;
  }

  @Route.delete(':role_group_id', {
    summary: 'Delete a role group; its members lose its roles on their next request',
    policy: { roles: ['can_delete_groups'], access },
    noContent: 'Deleted',
    errors: [404],
  })
  deleteRoleGroup(@Param('role_group_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.kinds.remove(ROLE_GROUP, caller, id);
  }

  @Route.post(':role_group_id/users/:user_id', {
    summary:
      'Add a user of the domain to a role group (idempotent): they hold its roles from their next request',
    policy: { roles: ['can_write_groups'], access },
    created: UserDto,
    errors: [{ 404: 'No such role group or user in this domain' }],
  })
  addRoleGroupUser(
    @Param('role_group_id', uuid) id: string,
    @Param('user_id', uuid) userId: string,
    @Caller() caller: AuthContext,
  ): Promise<UserDto> {
    return this.kinds.addUser(ROLE_GROUP, caller, id, userId);
  }

  @Route.delete(':role_group_id/users/:user_id', {
    summary: 'Remove a user from a role group: its roles are gone from their next request',
    policy: { roles: ['can_write_groups'], access },
    noContent: 'Removed',
    errors: [{ 404: 'No such role group, user or membership' }],
  })
  removeRoleGroupUser(
    @Param('role_group_id', uuid) id: string,
    @Param('user_id', uuid) userId: string,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.kinds.removeUser(ROLE_GROUP, caller, id, userId);
  }
}
