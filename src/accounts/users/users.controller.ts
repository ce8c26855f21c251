import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PutAndPatch } from '../../base/common/http/put-patch.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import {
  CreateUserDto,
  UpdateUserDto,
  UserBasicListDto,
  UserDto,
  UserListDto,
  UserListQueryDto,
  UserRolesDto,
} from './dto/user.dto.js';
import { UsersService } from './users.service.js';
import { UserUnlockService } from './user-unlock.service.js';
import { PUT_IS_PATCH, UsersByIdRoutes } from './users-by-id.routes.js';
import { Route } from '../../base/common/http/route.js';

const SELF_UPDATE =
  'Update the caller: first_name and last_name; anything else as on PATCH /{user_id} (email and password never through a token minted for an app)';

const editCurrent = PutAndPatch({
  path: 'current',
  ok: UserDto,
  errors: [
    { 404: 'The caller is not a member of this domain', 409: 'The email already belongs to another user' },
  ],
  put: `${SELF_UPDATE}. The same as PATCH: ${PUT_IS_PATCH}`,
  patch: SELF_UPDATE,
});
const users = ServiceRoutes<UsersService>('users');

@ApiTags('users')
@ApiErrors(400)
@Controller('API/users/v1/users')
export class UsersController extends users.handlers(
  {
    // fixed paths (current, basic; invite and invitations are InvitationsModule's, mounted earlier) before the inherited /{user_id}
    // routes: Express matches in registration order, and Nest registers own routes before inherited ones
    getCurrentUser: users.call(
      'current',
      Route.get('current', {
        summary: 'The user the presented token acts as',
        policy: { anyScope: true },
        ok: UserDto,
      }),
      input.caller,
    ),
    // no role: the caller edits themself (names; email and password only from their own sign-in or a super
    // administrator's); OAuth tokens need user_impersonation, as on PATCH /{user_id}
    updateCurrentUser: users.handle(
      editCurrent.patch,
      (s, c, b) => s.update(c, c.userId, b),
      input.caller,
      input.body(UpdateUserDto),
    ),
    replaceCurrentUser: users.handle(
      editCurrent.put,
      (s, c, b) => s.update(c, c.userId, b),
      input.caller,
      input.body(UpdateUserDto),
    ),
    getCurrentUserRoles: users.call(
      'currentRoles',
      Route.get('current/roles', {
        summary:
          'The roles the presented token may use in its domain: the caller’s roles cut down to the token’s ceiling',
        policy: { anyScope: true },
        ok: UserRolesDto,
      }),
      input.caller,
    ),
    listUsersBasic: users.call(
      'basicList',
      Route.get('basic', {
        summary:
          'Users of the caller’s domain in the basic form, for pickers: any member may list them (page style; query and sort as on the full list)',
        policy: {},
        ok: UserBasicListDto,
      }),
      input.caller,
      input.query(UserListQueryDto),
      input.path,
    ),
    listUsers: users.call(
      'list',
      Route.get({
        summary:
          'Users of the caller’s domain (page style; query filters email and names; sort on email, first_name, last_name, date_created)',
        policy: { roles: ['can_read_users'] },
        ok: UserListDto,
      }),
      input.caller,
      input.query(UserListQueryDto),
      input.path,
    ),
    createUser: users.call(
      'create',
      Route.post({
        summary: 'Create a user in the caller’s domain (emails are unique across domains)',
        policy: { admin: true, roles: ['can_write_users'] },
        created: UserDto,
        errors: [{ 409: 'The email already belongs to a user' }],
      }),
      input.caller,
      input.body(CreateUserDto),
    ),
  },
  UsersByIdRoutes,
) {
  constructor(
    protected readonly users: UsersService,
    protected readonly unlocks: UserUnlockService,
  ) {
    super();
  }
}
