import { Body, Controller, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { Authenticated } from '../../base/common/auth/authenticated.decorator.js';
import { Caller } from '../../base/common/auth/caller.decorator.js';
import { DomainMfaPolicyDto, DomainMfaPolicyOutDto } from './dto/mfa.dto.js';
import { MfaEnrolmentService } from './mfa-enrolment.service.js';

/** A domain's second-factor policy, set by its administrators (there is no system-domain CRUD yet). */
@ApiTags('system_domains')
@Controller('API/auth/v1/system_domains/current')
export class DomainMfaController {
  constructor(private readonly mfa: MfaEnrolmentService) {}

  @Patch('mfa')
  @Authenticated({ admin: true })
  @ApiOperation({ summary: 'Sets the caller’s domain’s second-factor policy (mfa_required, mfa_methods)' })
  @ApiOkResponse({ type: DomainMfaPolicyOutDto })
  @ApiErrors(400)
  updateDomainMfa(
    @Caller() caller: AuthContext,
    @Body() body: DomainMfaPolicyDto,
  ): Promise<DomainMfaPolicyOutDto> {
    return this.mfa.domainPolicy(caller, body);
  }
}
