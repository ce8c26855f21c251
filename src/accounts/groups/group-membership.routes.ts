import { Param } from '@nestjs/common';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { type AuthenticatedOptions } from '../../base/common/auth/authenticated.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { UserDto } from '../users/dto/user.dto.js';
import { GroupDto } from './dto/group.dto.js';
import type { GroupsService } from './groups.service.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
export const groupAccess = { entity: 'group' as const, param: 'group_id' };
/** Changing one group or its members. */
export const GROUP_WRITE = {
  roles: ['can_write_groups'],
  access: groupAccess,
} satisfies AuthenticatedOptions;

/**
 * The membership routes of `GroupsController`, which extends this class: Nest registers a controller's own
 * routes first and inherited ones after, so the route order and the route-policy keys (`GroupsController.…`)
 * stay.
 */
export abstract class GroupMembershipRoutes {
  protected abstract readonly groups: GroupsService;

  @Route.post(':group_id/members/:user_id', {
    summary: 'Add a user of the domain to a group (idempotent); returns the group',
    policy: GROUP_WRITE,
    created: GroupDto,
    errors: [{ 404: 'No such group or user in this domain' }],
  })
  addGroupMember(
    @Param('group_id', uuid) id: string,
    @Param('user_id', uuid) userId: string,
    @Caller() caller: AuthContext,
  ): Promise<GroupDto> {
    return this.groups.addMember(caller, id, userId);
  }

  @Route.delete(':group_id/members/:user_id', {
    summary: 'Remove a user from a group',
    policy: GROUP_WRITE,
    noContent: 'Removed',
    errors: [{ 404: 'No such group, user or membership' }],
  })
  removeGroupMember(
    @Param('group_id', uuid) id: string,
    @Param('user_id', uuid) userId: string,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.groups.removeMember(caller, id, userId);
  }

  // the spec's path for membership: the same policy and effect as members/, but the user comes back
  @Route.post(':group_id/users/:user_id', {
    summary: 'Add a user of the domain to a group (idempotent); returns the user',
    policy: GROUP_WRITE,
    created: UserDto,
    errors: [{ 404: 'No such group or user in this domain' }],
  })
  addGroupUser(
    @Param('group_id', uuid) id: string,
    @Param('user_id', uuid) userId: string,
    @Caller() caller: AuthContext,
  ): Promise<UserDto> {
    return this.groups.addUser(caller, id, userId);
  }

  @Route.delete(':group_id/users/:user_id', {
    summary: 'Remove a user from a group (as DELETE …/members/{user_id}/)',
    policy: GROUP_WRITE,
    noContent: 'Removed',
    errors: [{ 404: 'No such group, user or membership' }],
  })
  removeGroupUser(
    @Param('group_id', uuid) id: string,
    @Param('user_id', uuid) userId: string,
    @Caller() caller: AuthContext,
  ): Promise<void> {
    return this.groups.removeMember(caller, id, userId);
  }
}
