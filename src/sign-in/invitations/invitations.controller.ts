import { Body, Controller, Param, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import { CompleteInvitationDto, InvitationResponseDto, VerifyInviteByLinkDto } from './dto/invitation.dto.js';
import { InvitationsService } from './invitations.service.js';
import { Route } from '../../base/common/http/route.js';
import { param, ServiceRoutes } from '../../base/common/http/service-routes.js';

const EXPIRED = 'The link expired, was used or was withdrawn';
const invitations = ServiceRoutes<InvitationsService>('invitations');

/** The invited person's side: the mailed link, no credentials (the link's secret is the credential). */
@ApiTags('invitations')
@ApiErrors(400)
@Controller('API/auth/v1/invitation')
export class InvitationsController extends invitations.handlers({
  verifyInvitation: invitations.call(
    'verify',
    Route.get(':reset_hash', {
      summary: 'What the invitation behind a link is, for the invited person',
      public: 'anonymous',
      ok: VerifyInviteByLinkDto,
      errors: [404, { 419: EXPIRED }],
    }),
    param('reset_hash'),
  ),
}) {
  constructor(protected readonly invitations: InvitationsService) {
    super();
  }

  @Route.put('complete/:reset_hash', {
    summary:
      'Accept an invitation: a new account is created with the password, an existing one proves itself with its own password; signs the person in to the domain',
    public: 'signin',
    ok: InvitationResponseDto,
    errors: [404, { 403: 'The inviting domain is frozen (read-only)', 419: EXPIRED }],
  })
  completeInvitation(
    @Param('reset_hash') secret: string,
    @Body() body: CompleteInvitationDto,
    @Req() req: Request,
  ): Promise<InvitationResponseDto> {
    return this.invitations.complete(secret, body, req.id ?? null);
  }
}
