import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { UpdateUserDto, UserDto, UserRolesDto } from './dto/user.dto.js';
import type { UsersService } from './users.service.js';
import type { UserUnlockService } from './user-unlock.service.js';
import { Route } from '../../base/common/http/route.js';

export const userAccess = { entity: 'user' as const, param: 'user_id' };
export const PUT_IS_PATCH =
  'any subset of the fields; read-only fields are ignored, and fields equal to their stored value are no change';
const UPDATE =
  'Update a user: can_write_users, except that users may change their own first_name and last_name';
const id = input.uuidParam('user_id');

const edit = PutAndPatch({
  path: ':user_id',
  policy: { access: userAccess },
  ok: UserDto,
  errors: [404, { 409: 'The email already belongs to another user' }],
  put: `${UPDATE}. The same as PATCH: ${PUT_IS_PATCH}`,
  patch: UPDATE,
});
const users = ServiceRoutes<UsersService>('users');
const unlocks = ServiceRoutes<UserUnlockService>('unlocks');

/**
 * The /{user_id} routes of `UsersController`, classes it extends: Nest registers a controller's own routes
 * first and inherited ones after, so these stay behind the fixed paths, and the route-policy keys still name
 * `UsersController`.
 */
export const UsersByIdRoutes = users.handlers(
  {
    getUser: users.call(
      'get',
      Route.get(':user_id', {
        summary: 'One user of the caller’s domain',
        policy: { roles: ['can_read_users'], access: userAccess },
        ok: UserDto,
        errors: [404],
      }),
      input.caller,
      id,
    ),
    getUserRoles: users.call(
      'roles',
      Route.get(':user_id/roles', {
        summary: 'A user’s effective roles in the caller’s domain',
        policy: { roles: ['can_read_users'], access: userAccess },
        ok: UserRolesDto,
        errors: [404],
      }),
      input.caller,
      id,
    ),
    updateUser: users.call('update', edit.patch, input.caller, id, input.body(UpdateUserDto)),
  },
  unlocks.handlers(
    {
      unlockUser: unlocks.call(
        'unlock',
        Route.post(':user_id/unlock', {
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
        }),
        input.caller,
        id,
      ),
    },
    users.handlers({
      deleteUser: users.call(
        'remove',
        Route.delete(':user_id', {
          summary:
            'Remove a user from the caller’s domain (their tokens there stop working); the account goes when no domain is left',
          policy: { roles: ['can_delete_users'], access: userAccess },
          noContent: 'Removed',
          errors: [404],
        }),
        input.caller,
        id,
      ),
      replaceUser: users.call('update', edit.put, input.caller, id, input.body(UpdateUserDto)),
    }),
  ),
);
