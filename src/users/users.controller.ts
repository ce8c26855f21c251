import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { PutAndPatch } from '../common/http/put-patch.js';
import { ApiErrors } from '../common/http/api-errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Caller } from '../common/auth/caller.decorator.js';
import { Authenticated } from '../common/auth/authenticated.decorator.js';
import { UuidParamPipe } from '../common/http/uuid-param.pipe.js';
import {
  InvitationListDto,
  InviteUserDto,
  UserSystemDomainInviteDto,
} from '../invitations/dto/invitation.dto.js';
import { InvitationsService } from '../invitations/invitations.service.js';
import { PageQueryDto } from '../common/http/pagination.dto.js';
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

const uuid = new UuidParamPipe();
const userAccess = { entity: 'user' as const, param: 'user_id' };
const UPDATE =
  'Update a user: can_write_users, except that users may change their own first_name and last_name';
const SELF_UPDATE =
  'Update the caller: first_name and last_name; anything else as on PATCH /{user_id} (email and password never through a token minted for an app)';
const PUT_IS_PATCH =
  'any subset of the fields; read-only fields are ignored, and fields equal to their stored value are no change';

const editCurrent = PutAndPatch({
  path: 'current',
  ok: UserDto,
  errors: [
    { 404: 'The caller is not a member of this domain', 409: 'The email already belongs to another user' },
  ],
  put: `${SELF_UPDATE}. The same as PATCH: ${PUT_IS_PATCH}`,
  patch: SELF_UPDATE,
});

const edit = PutAndPatch({
  path: ':user_id',
  policy: { access: userAccess },
  ok: UserDto,
  errors: [404, { 409: 'The email already belongs to another user' }],
  put: `${UPDATE}. The same as PATCH: ${PUT_IS_PATCH}`,
  patch: UPDATE,
});

@ApiTags('users')
@ApiErrors(400)
@Controller('API/users/v1/users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly invitations: InvitationsService,
    private readonly unlocks: UserUnlockService,
  ) {}

  // fixed paths (current, basic, invite, invitations) before /{user_id}: Express matches in registration order
  @Get('current')
  @Authenticated({ anyScope: true })
  @ApiOperation({ summary: 'The user the presented token acts as' })
  @ApiOkResponse({ type: UserDto })
  getCurrentUser(@Caller() caller: AuthContext): Promise<UserDto> {
    return this.users.current(caller);
  }

  // no role: the caller edits themself (names; email and password only from their own sign-in or a super
  // administrator's); OAuth tokens need user_impersonation, as on PATCH /{user_id}
  @editCurrent.patch
  updateCurrentUser(@Body() body: UpdateUserDto, @Caller() caller: AuthContext): Promise<UserDto> {
    return this.users.update(caller, caller.userId, body);
  }

  @editCurrent.put
  replaceCurrentUser(@Body() body: UpdateUserDto, @Caller() caller: AuthContext): Promise<UserDto> {
    return this.users.update(caller, caller.userId, body);
  }

  @Get('current/roles')
  @Authenticated({ anyScope: true })
  @ApiOperation({
    summary:
      'The roles the presented token may use in its domain: the caller’s roles cut down to the token’s ceiling',
  })
  @ApiOkResponse({ type: UserRolesDto })
  getCurrentUserRoles(@Caller() caller: AuthContext): UserRolesDto {
    return this.users.currentRoles(caller);
  }

  @Get('basic')
  @Authenticated()
  @ApiOperation({
    summary:
      'Users of the caller’s domain in the basic form, for pickers: any member may list them (page style; query and sort as on the full list)',
  })
  @ApiOkResponse({ type: UserBasicListDto })
  listUsersBasic(
    @Query() q: UserListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<UserBasicListDto> {
    return this.users.basicList(caller, q, req.path);
  }

  @Get()
  @Authenticated({ roles: ['can_read_users'] })
  @ApiOperation({
    summary:
      'Users of the caller’s domain (page style; query filters email and names; sort on email, first_name, last_name, date_created)',
  })
  @ApiOkResponse({ type: UserListDto })
  listUsers(
    @Query() q: UserListQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<UserListDto> {
    return this.users.list(caller, q, req.path);
  }

  @Post()
  @Authenticated({ admin: true, roles: ['can_write_users'] })
  @ApiOperation({ summary: 'Create a user in the caller’s domain (emails are unique across domains)' })
  @ApiCreatedResponse({ type: UserDto })
  @ApiErrors({ 409: 'The email already belongs to a user' })
  createUser(@Body() body: CreateUserDto, @Caller() caller: AuthContext): Promise<UserDto> {
    return this.users.create(caller, body);
  }

  @Post('invite')
  @Authenticated({ roles: ['can_write_users'] })
  @ApiOperation({
    summary:
      'Invite an email into the caller’s domain and mail the link (valid 7 days). Nothing changes for the person until they accept; a new invitation replaces their pending one',
  })
  @ApiCreatedResponse({ type: UserSystemDomainInviteDto })
  @ApiErrors({ 409: 'Already a member of this domain' })
  inviteUser(@Body() body: InviteUserDto, @Caller() caller: AuthContext): Promise<UserSystemDomainInviteDto> {
    return this.invitations.invite(caller, body);
  }

  @Get('invitations')
  @Authenticated({ roles: ['can_read_users'] })
  @ApiOperation({ summary: 'Pending invitations of the caller’s domain (page style, newest first)' })
  @ApiOkResponse({ type: InvitationListDto })
  listInvitations(
    @Query() q: PageQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<InvitationListDto> {
    return this.invitations.listPending(caller, q, req.path);
  }

  @Delete('invitations/:invitation_id')
  @HttpCode(204)
  @Authenticated({ roles: ['can_write_users'] })
  @ApiOperation({ summary: 'Withdraw a pending invitation: its link stops working' })
  @ApiNoContentResponse({ description: 'Withdrawn' })
  @ApiErrors(404)
  withdrawInvitation(@Param('invitation_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.invitations.withdraw(caller, id);
  }

  @Get(':user_id')
  @Authenticated({ roles: ['can_read_users'], access: userAccess })
  @ApiOperation({ summary: 'One user of the caller’s domain' })
  @ApiOkResponse({ type: UserDto })
  @ApiErrors(404)
  getUser(@Param('user_id', uuid) id: string, @Caller() caller: AuthContext): Promise<UserDto> {
    return this.users.get(caller, id);
  }

  @Get(':user_id/roles')
  @Authenticated({ roles: ['can_read_users'], access: userAccess })
  @ApiOperation({ summary: 'A user’s effective roles in the caller’s domain' })
  @ApiOkResponse({ type: UserRolesDto })
  @ApiErrors(404)
  getUserRoles(@Param('user_id', uuid) id: string, @Caller() caller: AuthContext): Promise<UserRolesDto> {
    return this.users.roles(caller, id);
  }

  @edit.patch
  updateUser(
    @Param('user_id', uuid) id: string,
    @Body() body: UpdateUserDto,
    @Caller() caller: AuthContext,
  ): Promise<UserDto> {
    return this.users.update(caller, id, body);
  }

  @edit.put
  replaceUser(
    @Param('user_id', uuid) id: string,
    @Body() body: UpdateUserDto,
    @Caller() caller: AuthContext,
  ): Promise<UserDto> {
    return this.users.update(caller, id, body);
  }

  @Post(':user_id/unlock')
  @HttpCode(204)
  @Authenticated({ roles: ['can_write_users'], access: userAccess })
  @ApiOperation({
    summary:
      'Lift the guessing defence’s temporary locks on a user (password and every second factor) and forget their failed attempts. The locks are the account’s: only an administrator of the user’s only domain, or a super administrator, may lift them',
  })
  @ApiNoContentResponse({ description: 'Unlocked (also when nothing was locked)' })
  @ApiErrors(404, {
    403: 'The caller is not an administrator, the user is a super administrator, or the user also belongs to other domains (only a super administrator may unlock them)',
  })
  unlockUser(@Param('user_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.unlocks.unlock(caller, id);
  }

  @Delete(':user_id')
  @HttpCode(204)
  @Authenticated({ roles: ['can_delete_users'], access: userAccess })
  @ApiOperation({
    summary:
      'Remove a user from the caller’s domain (their tokens there stop working); the account goes when no domain is left',
  })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiErrors(404)
  deleteUser(@Param('user_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.users.remove(caller, id);
  }
}
