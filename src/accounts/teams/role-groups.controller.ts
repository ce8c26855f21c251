import { UserDto } from '../users/dto/user.dto.js';
import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
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

const id = input.uuidParam('role_group_id');
const userId = input.uuidParam('user_id');
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
const kinds = ServiceRoutes<GroupKindsService>('kinds');

/** Role groups (published RoleGroup): bundles of roles; their members hold those roles in the domain. */
@ApiTags('role groups')
@ApiErrors(400)
@Controller('API/users/v1/role_groups')
export class RoleGroupsController extends kinds.handlers({
  listRoleGroups: kinds.handle(
    Route.get({
      summary:
        'Role groups of the caller’s domain (page style; query filters the name; sort on name, date_created)',
      policy: { roles: ['can_read_groups'] },
      ok: RoleGroupListDto,
    }),
    (s, c, q, p) => s.list(ROLE_GROUP, c, q, p),
    input.caller,
    input.query(GroupListQueryDto),
    input.path,
  ),
  createRoleGroup: kinds.handle(
    Route.post({
      summary: `Create a role group carrying roles (${HELD})`,
      policy: { roles: ['can_write_groups'] },
      created: RoleGroupDto,
      errors: [{ 409: TAKEN }],
    }),
    (s, c, b) => s.create(ROLE_GROUP, c, b),
    input.caller,
    input.body(CreateRoleGroupDto),
  ),
  // fixed paths before /{role_group_id}
  listRoleGroupsBasic: kinds.handle(
    Route.get('basic', {
      summary: 'Role groups in the basic form (id, name, kind), for pickers: any member may list them',
      policy: {},
      ok: GroupLikeBasicListDto,
    }),
    (s, c, q, p) => s.basic(['ROLE_GROUP'], c, q, p),
    input.caller,
    input.query(GroupListQueryDto),
    input.path,
  ),
  getRoleGroup: kinds.handle(
    Route.get(':role_group_id', {
      summary: 'One role group, with its member ids',
      policy: { roles: ['can_read_groups'], access },
      ok: RoleGroupDto,
      errors: [404],
    }),
    (s, c, i) => s.get(ROLE_GROUP, c, i),
    input.caller,
    id,
  ),
  updateRoleGroup: kinds.handle(
    edit.patch,
    (s, c, i, b) => s.update(ROLE_GROUP, c, i, b),
    input.caller,
    id,
    input.body(UpdateRoleGroupDto),
  ),
  deleteRoleGroup: kinds.handle(
    Route.delete(':role_group_id', {
      summary: 'Delete a role group; its members lose its roles on their next request',
      policy: { roles: ['can_delete_groups'], access },
      noContent: 'Deleted',
      errors: [404],
    }),
    (s, c, i) => s.remove(ROLE_GROUP, c, i),
    input.caller,
    id,
  ),
  addRoleGroupUser: kinds.handle(
    Route.post(':role_group_id/users/:user_id', {
      summary:
        'Add a user of the domain to a role group (idempotent): they hold its roles from their next request',
      policy: { roles: ['can_write_groups'], access },
      created: UserDto,
      errors: [{ 404: 'No such role group or user in this domain' }],
    }),
    (s, c, i, u) => s.addUser(ROLE_GROUP, c, i, u),
    input.caller,
    id,
    userId,
  ),
  removeRoleGroupUser: kinds.handle(
    Route.delete(':role_group_id/users/:user_id', {
      summary: 'Remove a user from a role group: its roles are gone from their next request',
      policy: { roles: ['can_write_groups'], access },
      noContent: 'Removed',
      errors: [{ 404: 'No such role group, user or membership' }],
    }),
    (s, c, i, u) => s.removeUser(ROLE_GROUP, c, i, u),
    input.caller,
    id,
    userId,
  ),
  replaceRoleGroup: kinds.handle(
    edit.put,
    (s, c, i, b) => s.update(ROLE_GROUP, c, i, b),
    input.caller,
    id,
    input.body(UpdateRoleGroupDto),
  ),
}) {
  constructor(protected readonly kinds: GroupKindsService) {
    super();
  }
}
