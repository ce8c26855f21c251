import { Body, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { DomainMfaPolicyDto, DomainMfaPolicyOutDto } from './dto/mfa.dto.js';
import { MfaEnrolmentService } from './mfa-enrolment.service.js';
import { Route } from '../../base/common/http/route.js';

/** A domain's second-factor policy, set by its administrators (there is no system-domain CRUD yet). */
@ApiTags('system_domains')
@Controller('API/auth/v1/system_domains/current')
export class DomainMfaController {
  constructor(private readonly mfa: MfaEnrolmentService) {}

  @Route.patch('mfa', {
    summary: 'Sets the caller’s domain’s second-factor policy (mfa_required, mfa_methods)',
    policy: { admin: true },
    ok: DomainMfaPolicyOutDto,
    errors: [400],
  })
  updateDomainMfa(
    @Caller() caller: AuthContext,
    @Body() body: DomainMfaPolicyDto,
  ): Promise<DomainMfaPolicyOutDto> {
    return this.mfa.domainPolicy(caller, body);
  }
}
