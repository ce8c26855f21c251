import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { UuidParamPipe } from '../../base/common/http/uuid-param.pipe.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { InvitationListDto, InviteUserDto, UserSystemDomainInviteDto } from './dto/invitation.dto.js';
import { InvitationsService } from './invitations.service.js';
import { Route } from '../../base/common/http/route.js';

const uuid = new UuidParamPipe();

/**
 * The administrators' side of invitations, under the users service's paths (users/invite, users/invitations).
 * InvitationsModule is mounted before the users modules, so these fixed paths come before their {user_id}
 * routes.
 */
@ApiTags('users')
@ApiErrors(400)
@Controller('API/users/v1/users')
export class UserInvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Route.post('invite', {
    summary:
      'Invite an email into the caller’s domain and mail the link (valid 7 days). Nothing changes for the person until they accept; a new invitation replaces their pending one',
    policy: { roles: ['can_write_users'] },
    created: UserSystemDomainInviteDto,
    errors: [{ 409: 'Already a member of this domain' }],
  })
  inviteUser(@Body() body: InviteUserDto, @Caller() caller: AuthContext): Promise<UserSystemDomainInviteDto> {
    return this.invitations.invite(caller, body);
  }

  @Route.get('invitations', {
    summary: 'Pending invitations of the caller’s domain (page style, newest first)',
    policy: { roles: ['can_read_users'] },
    ok: InvitationListDto,
  })
  listInvitations(
    @Query() q: PageQueryDto,
    @Caller() caller: AuthContext,
    @Req() req: Request,
  ): Promise<InvitationListDto> {
    return this.invitations.listPending(caller, q, req.path);
  }

  @Route.delete('invitations/:invitation_id', {
    summary: 'Withdraw a pending invitation: its link stops working',
    policy: { roles: ['can_write_users'] },
    noContent: 'Withdrawn',
    errors: [404],
  })
  withdrawInvitation(@Param('invitation_id', uuid) id: string, @Caller() caller: AuthContext): Promise<void> {
    return this.invitations.withdraw(caller, id);
  }
}
