import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { RequestErrors } from '../../base/common/errors/request.errors.js';
import {
  InvitationLinkDto,
  InvitationLinkRequestDto,
  InvitationRegisterDto,
  InvitationRegisteredDto,
  InvitationTokenDto,
  InvitationTokenQueryDto,
  InvitationTokenStateDto,
} from './dto/invitation-link.dto.js';
import { InvitationLinksService } from './invitation-links.service.js';
import { Route } from '../../base/common/http/route.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';

const EXPIRED = 'The token expired, was used or was purged';
const links = ServiceRoutes<InvitationLinksService>('links');

/** The token of invite/validate/: the body's `token` or the query's `hash`; both and different is a 400. */
function tokenOf(body: InvitationTokenDto, query: InvitationTokenQueryDto): string {
  const { token } = body;
  const { hash } = query;
  if (token !== undefined && hash !== undefined && token !== hash) {
    throw RequestErrors.INVALID({ hash: 'hash and token name different tokens: send one of them' });
  }
  const value = token ?? hash;
  if (value === undefined)
    throw RequestErrors.INVALID({ token: 'token (or the query parameter hash) is required' });
  return value;
}

/**
 * The published users service's invitation paths beyond invite/: reusable links for a group, registration
 * through one, checking a token, purging. Mounted before UsersModule: `invite/register` must never reach
 * `{user_id}/…` routes.
 */
@ApiTags('users')
@ApiErrors(400)
@Controller('API/users/v1/users/invite')
export class InvitationLinksController extends links.handlers({
  requestInvitationLink: links.call(
    'request',
    Route.post('token/request', {
      summary:
        'A reusable invitation link for a group of the caller’s domain (7 days; purge revokes it). It grants no role the caller lacks; is_admin needs an administrator',
      policy: { roles: ['can_write_users'] },
      ok: InvitationLinkDto,
      errors: [403, { 404: 'A group is not one of the caller’s domain' }],
    }),
    input.caller,
    input.body(InvitationLinkRequestDto),
  ),
  registerInvitation: links.call(
    'register',
    Route.post('register', {
      summary:
        'Register with an invitation link: a single-use invitation carrying what the link grants is mailed to the address (seat limits apply); the answer is the same for every address',
      public: 'signin',
      created: InvitationRegisteredDto,
      errors: [404, { 403: 'The domain is frozen (read-only)', 419: EXPIRED }],
    }),
    input.body(InvitationRegisterDto),
    input.requestId,
  ),
  validateInvitation: links.handle(
    Route.post('validate', {
      summary:
        'Check an invitation link’s token or a mailed invitation’s secret without using it: body `token` or query `hash`',
      public: 'signin',
      ok: InvitationTokenStateDto,
      errors: [404, { 419: EXPIRED }],
    }),
    (s, b, q) => s.validate(tokenOf(b, q)),
    input.body(InvitationTokenDto),
    input.query(InvitationTokenQueryDto),
  ),
  purgeInvitations: links.call(
    'purge',
    Route.delete('purge', {
      summary:
        'Purge the caller’s domain’s outstanding invitations: every invitation not accepted (pending or expired) and every invitation link',
      policy: { roles: ['can_write_users'] },
      noContent: 'Purged',
    }),
    input.caller,
  ),
}) {
  constructor(protected readonly links: InvitationLinksService) {
    super();
  }
}
