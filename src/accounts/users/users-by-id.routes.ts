import { Body, Param } from '@nestjs/common';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { UpdateUserDto, UserDto, UserRolesDto } from './dto/user.dto.js';
import type { UsersService } from './users.service.js';
import type { UserUnlockService } from './user-unlock.service.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();
export const userAccess = { entity: 'user' as const, param: 'user_id' };
export const PUT_IS_PATCH =
  'any subset of the fields; read-only fields are ignored, and fields equal to their stored value are no change';
const UPDATE =
  'Update a user: can_write_users, except that users may change their own first_name and last_name';

const edit = PutAndPatch({
  path: ':user_id',
  policy: { access: userAccess },
  ok: UserDto,
  errors: [404, { 409: 'The email already belongs to another user' }],
  put: `${UPDATE}. The same as PATCH: ${PUT_IS_PATCH}`,
  patch: UPDATE,
});

/**
 * The /{user_id} routes of `UsersController`, which extends this class: Nest registers a controller's own
 * routes first and inherited ones after, so these stay behind the fixed paths, and the route-policy keys
 * still name `UsersController`.
 */
export abstract class UsersByIdRoutes {
  protected abstract readonly users: UsersService;
  protected abstract readonly unlocks: UserUnlockService;

  @Route.get(':user_id', {
    summary: 'One user of the caller’s domain',
    policy: { roles: ['can_read_users'], access: userAccess },
    ok: UserDto,
    errors: [404],
  })
  getUser(@Param('user_id', uuid) id: string, @Caller() caller: AuthContext): Promise<UserDto> {
    return this.users.get(caller, id);
  }

  @Route.get(':user_id/roles', {
    summary: 'A user’s effective roles in the caller’s domain',
    policy: { roles: ['can_read_users'], access: userAccess },
    ok: UserRolesDto,
    errors: [404],
  })
  getUserRoles(@Param('user_id', uuid) id: string, @Caller() caller: AuthContext): Promise<UserRolesDto> {
    return this.users.roles(caller, id);
  }

  @edit.both('replaceUser')
  updateUser(
    @Param('user_id', uuid) id: string,
    @Body() body: UpdateUserDto,
    @Caller() caller: AuthContext,
  ): Promise<UserDto> {
    return this.users.update(caller, id, body);
  }

  @Route.post(':user_id/unlock', {
    summary:
      'Lift the guessing defence’s temporary locks on a user (password and every second factor) and forget their failed attempts. The locks are the account’s: only an administrator of the user’s only domain, or a super administrator, may lift them',
    policy: { roles: ['can_write_users'], access: userAccess },
    noContent: 'Unlocked (also when nothing was locked)',
    errors: [
      404,
      {
        403: 'The caller is not an administrator, the user is a super administrator, or the user also belongs to other domains (only a super administrator may unlock them)',
      },
    ],
  })
  unlockUser(@Param('user_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.unlocks.unlock(caller, id);
  }

  @Route.delete(':user_id', {
    summary:
      'Remove a user from the caller’s domain (their tokens there stop working); the account goes when no domain is left',
    policy: { roles: ['can_delete_users'], access: userAccess },
    noContent: 'Removed',
    errors: [404],
  })
  deleteUser(@Param('user_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.users.remove(caller, id);
  }
}
