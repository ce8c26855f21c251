import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { InvitationListDto, InviteUserDto, UserSystemDomainInviteDto } from './dto/invitation.dto.js';
import { InvitationsService } from './invitations.service.js';
import { Route } from '../../base/common/http/route.js';

const invitations = ServiceRoutes<InvitationsService>('invitations');

/**
 * The administrators' side of invitations, under the users service's paths (users/invite, users/invitations).
 * InvitationsModule is mounted before the users modules, so these fixed paths come before their {user_id}
 * routes.
 */
@ApiTags('users')
@ApiErrors(400)
@Controller('API/users/v1/users')
export class UserInvitationsController extends invitations.handlers({
  inviteUser: invitations.call(
    'invite',
    Route.post('invite', {
      summary:
        'Invite an email into the caller’s domain and mail the link (valid 7 days). Nothing changes for the person until they accept; a new invitation replaces their pending one',
      policy: { roles: ['can_write_users'] },
      created: UserSystemDomainInviteDto,
      errors: [{ 409: 'Already a member of this domain' }],
    }),
    input.caller,
    input.body(InviteUserDto),
  ),
  listInvitations: invitations.call(
    'listPending',
    Route.get('invitations', {
      summary: 'Pending invitations of the caller’s domain (page style, newest first)',
      policy: { roles: ['can_read_users'] },
      ok: InvitationListDto,
    }),
    input.caller,
    input.query(PageQueryDto),
    input.path,
  ),
  withdrawInvitation: invitations.call(
    'withdraw',
    Route.delete('invitations/:invitation_id', {
      summary: 'Withdraw a pending invitation: its link stops working',
      policy: { roles: ['can_write_users'] },
      noContent: 'Withdrawn',
      errors: [404],
    }),
    input.caller,
    input.uuidParam('invitation_id'),
  ),
}) {
  constructor(protected readonly invitations: InvitationsService) {
    super();
  }
}
