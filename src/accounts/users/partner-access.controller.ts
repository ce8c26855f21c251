import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { PartnerAccessDto, PartnerAccessGrantedDto } from './dto/partner-access.dto.js';
import { PartnerAccessService } from './partner-access.service.js';
import { Route } from '../../base/common/http/route.js';

/** users/partner_domain_access/: mounted with UserExtrasModule, before users/{user_id}. */
@ApiTags('users')
@ApiErrors(400)
@Controller('API/users/v1/users/partner_domain_access')
export class PartnerAccessController {
  constructor(private readonly access: PartnerAccessService) {}

  @Route.post({
    summary:
      'Let a partner domain administer the caller’s (customer) domain: its administrators become administrators here (no seat); idempotent, adds partner administrators appointed since',
    policy: { admin: true, roles: ['can_write_users'] },
    accepted: PartnerAccessGrantedDto,
    errors: [403, { 404: 'No such live partner domain' }],
  })
  grantPartnerDomainAccess(
    @Body() body: PartnerAccessDto,
    @Caller() caller: AuthContext,
  ): Promise<PartnerAccessGrantedDto> {
    return this.access.grant(caller, body);
  }

  @Route.delete({
    summary:
      'Revoke a partner domain’s access: the memberships the grant made are removed (their tokens stop here)',
    policy: { admin: true, roles: ['can_write_users'] },
    noContent: 'Revoked',
    errors: [403, { 404: 'No such grant' }],
  })
  revokePartnerDomainAccess(@Body() body: PartnerAccessDto, @Caller() caller: AuthContext): Promise<void> {
    return this.access.revoke(caller, body);
  }
}
