import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
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

const UPDATE = 'Update a group (members’ roles change on their next request)';
const id = input.uuidParam('group_id');

const edit = PutAndPatch({
  path: ':group_id',
  policy: GROUP_WRITE,
  ok: GroupDto,
  errors: [404, { 409: 'The name is taken in this domain' }],
  put: `${UPDATE}. The same as PATCH: any subset of the fields; read-only fields are ignored`,
  patch: UPDATE,
});
const groups = ServiceRoutes<GroupsService>('groups');

@ApiTags('groups')
@ApiErrors(400)
@Controller('API/users/v1/groups')
export class GroupsController extends groups.handlers(
  {
    listGroups: groups.call(
      'list',
      Route.get({
        summary:
          'Groups of the caller’s domain (page style; query filters the name; sort on name, date_created)',
        policy: { roles: ['can_read_groups'] },
        ok: GroupListDto,
      }),
      input.caller,
      input.query(GroupListQueryDto),
      input.path,
    ),
    createGroup: groups.call(
      'create',
      Route.post({
        summary: 'Create a group carrying roles (only roles the caller holds)',
        policy: { roles: ['can_write_groups'] },
        created: GroupDto,
        errors: [{ 409: 'The name is taken in this domain' }],
      }),
      input.caller,
      input.body(CreateGroupDto),
    ),
    // fixed paths before /{group_id}: Express matches in registration order
    listGroupsBasic: groups.call(
      'basicList',
      Route.get('basic', {
        summary:
          'Groups of the caller’s domain in the basic form (id, name), for pickers: any member may list them (page style; query and sort as on the full list)',
        policy: {},
        ok: GroupBasicListDto,
      }),
      input.caller,
      input.query(GroupListQueryDto),
      input.path,
    ),
    getGroup: groups.call(
      'get',
      Route.get(':group_id', {
        summary: 'One group, with its member ids',
        policy: { roles: ['can_read_groups'], access: groupAccess },
        ok: GroupDto,
        errors: [404],
      }),
      input.caller,
      id,
    ),
    updateGroup: groups.call('update', edit.patch, input.caller, id, input.body(UpdateGroupDto)),
    deleteGroup: groups.call(
      'remove',
      Route.delete(':group_id', {
        summary: 'Delete a group; its members lose its roles',
        policy: { roles: ['can_delete_groups'], access: groupAccess },
        noContent: 'Deleted',
        errors: [404],
      }),
      input.caller,
      id,
    ),
    replaceGroup: groups.call('update', edit.put, input.caller, id, input.body(UpdateGroupDto)),
  },
  GroupMembershipRoutes,
) {
  constructor(protected readonly groups: GroupsService) {
    super();
  }
}
