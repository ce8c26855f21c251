import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { CompleteInvitationDto, InvitationResponseDto, VerifyInviteByLinkDto } from './dto/invitation.dto.js';
import { InvitationsService } from './invitations.service.js';
import { Route } from '../../base/common/http/route.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';

const EXPIRED = 'The link expired, was used or was withdrawn';
const invitations = ServiceRoutes<InvitationsService>('invitations');
const secret = input.param('reset_hash');

/** The invited person's side: the mailed link, no credentials (the link's secret is the credential). */
@ApiTags('invitations')
@ApiErrors(400)
@Controller('API/auth/v1/invitation')
export class InvitationsController extends invitations.handlers({
  completeInvitation: invitations.call(
    'complete',
    Route.put('complete/:reset_hash', {
      summary:
        'Accept an invitation: a new account is created with the password, an existing one proves itself with its own password; signs the person in to the domain',
      public: 'signin',
      ok: InvitationResponseDto,
      errors: [404, { 403: 'The inviting domain is frozen (read-only)', 419: EXPIRED }],
    }),
    secret,
    input.body(CompleteInvitationDto),
    input.requestId,
  ),
  verifyInvitation: invitations.call(
    'verify',
    Route.get(':reset_hash', {
      summary: 'What the invitation behind a link is, for the invited person',
      public: 'anonymous',
      ok: VerifyInviteByLinkDto,
      errors: [404, { 419: EXPIRED }],
    }),
    secret,
  ),
}) {
  constructor(protected readonly invitations: InvitationsService) {
    super();
  }
}
