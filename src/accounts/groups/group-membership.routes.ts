import type { AuthenticatedOptions } from '../../base/common/auth/authenticated.decorator.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { UserDto } from '../users/dto/user.dto.js';
import { GroupDto } from './dto/group.dto.js';
import type { GroupsService } from './groups.service.js';
import { Route } from '../../base/common/http/route.js';

export const groupAccess = { entity: 'group' as const, param: 'group_id' };
/** Changing one group or its members. */
export const GROUP_WRITE = {
  roles: ['can_write_groups'],
  access: groupAccess,
} satisfies AuthenticatedOptions;
const id = input.uuidParam('group_id');
const userId = input.uuidParam('user_id');
const groups = ServiceRoutes<GroupsService>('groups');

/**
 * The membership routes of `GroupsController`, a class its own table extends: Nest registers a controller's
 * own routes first and inherited ones after, so the route order and the route-policy keys
 * (`GroupsController.…`) stay.
 */
export const GroupMembershipRoutes = groups.handlers({
  addGroupMember: groups.call(
    'addMember',
    Route.post(':group_id/members/:user_id', {
      summary: 'Add a user of the domain to a group (idempotent); returns the group',
      policy: GROUP_WRITE,
      created: GroupDto,
      errors: [{ 404: 'No such group or user in this domain' }],
    }),
    input.caller,
    id,
    userId,
  ),
  removeGroupMember: groups.call(
    'removeMember',
    Route.delete(':group_id/members/:user_id', {
      summary: 'Remove a user from a group',
      policy: GROUP_WRITE,
      noContent: 'Removed',
      errors: [{ 404: 'No such group, user or membership' }],
    }),
    input.caller,
    id,
    userId,
  ),
  // the spec's path for membership: the same policy and effect as members/, but the user comes back
  addGroupUser: groups.call(
    'addUser',
    Route.post(':group_id/users/:user_id', {
      summary: 'Add a user of the domain to a group (idempotent); returns the user',
      policy: GROUP_WRITE,
      created: UserDto,
      errors: [{ 404: 'No such group or user in this domain' }],
    }),
    input.caller,
    id,
    userId,
  ),
  removeGroupUser: groups.call(
    'removeMember',
    Route.delete(':group_id/users/:user_id', {
      summary: 'Remove a user from a group (as DELETE …/members/{user_id}/)',
      policy: GROUP_WRITE,
      noContent: 'Removed',
      errors: [{ 404: 'No such group, user or membership' }],
    }),
    input.caller,
    id,
    userId,
  ),
});
