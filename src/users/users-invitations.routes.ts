import { Body, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrors } from '../common/http/api-errors.js';
import type { AuthContext } from '../common/auth/auth-context.js';
import { Caller } from '../common/auth/caller.decorator.js';
import { Authenticated } from '../common/auth/authenticated.decorator.js';
import { UuidParamPipe } from '../common/http/uuid-param.pipe.js';
import { PageQueryDto } from '../common/http/pagination.dto.js';
import {
  InvitationListDto,
  InviteUserDto,
  UserSystemDomainInviteDto,
} from '../invitations/dto/invitation.dto.js';
import type { InvitationsService } from '../invitations/invitations.service.js';
import { UsersByIdRoutes } from './users-by-id.routes.js';

const uuid = new UuidParamPipe();

/**
 * The invitation routes of `UsersController` (which extends this class), between its own routes and the
 * /{user_id} routes this class inherits: Nest registers a class's own routes before inherited ones.
 */
export abstract class UsersInvitationRoutes extends UsersByIdRoutes {
  protected abstract readonly invitations: InvitationsService;

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
}
