import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { PartnerAccessDto, PartnerAccessGrantedDto } from './dto/partner-access.dto.js';
import { PartnerAccessService } from './partner-access.service.js';
import { Route } from '../../base/common/http/route.js';

const access = ServiceRoutes<PartnerAccessService>('access');

/** users/partner_domain_access/: mounted with UserExtrasModule, before users/{user_id}. */
@ApiTags('users')
@ApiErrors(400)
@Controller('API/users/v1/users/partner_domain_access')
export class PartnerAccessController extends access.handlers({
  grantPartnerDomainAccess: access.call(
    'grant',
    Route.post({
      summary:
        'Let a partner domain administer the caller’s (customer) domain: its administrators become administrators here (no seat); idempotent, adds partner administrators appointed since',
      policy: { admin: true, roles: ['can_write_users'] },
      accepted: PartnerAccessGrantedDto,
      errors: [403, { 404: 'No such live partner domain' }],
    }),
    input.caller,
    input.body(PartnerAccessDto),
  ),
  revokePartnerDomainAccess: access.call(
    'revoke',
    Route.delete({
      summary:
        'Revoke a partner domain’s access: the memberships the grant made are removed (their tokens stop here)',
      policy: { admin: true, roles: ['can_write_users'] },
      noContent: 'Revoked',
      errors: [403, { 404: 'No such grant' }],
    }),
    input.caller,
    input.body(PartnerAccessDto),
  ),
}) {
  constructor(protected readonly access: PartnerAccessService) {
    super();
  }
}
