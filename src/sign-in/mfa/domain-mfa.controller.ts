import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { DomainMfaPolicyDto, DomainMfaPolicyOutDto } from './dto/mfa.dto.js';
import { MfaEnrolmentService } from './mfa-enrolment.service.js';
import { Route } from '../../base/common/http/route.js';

const mfa = ServiceRoutes<MfaEnrolmentService>('mfa');

/** A domain's second-factor policy, set by its administrators (there is no system-domain CRUD yet). */
@ApiTags('system_domains')
@Controller('API/auth/v1/system_domains/current')
export class DomainMfaController extends mfa.handlers({
  updateDomainMfa: mfa.call(
    'domainPolicy',
    Route.patch('mfa', {
      summary: 'Sets the caller’s domain’s second-factor policy (mfa_required, mfa_methods)',
      policy: { admin: true },
      ok: DomainMfaPolicyOutDto,
      errors: [400],
    }),
    input.caller,
    input.body(DomainMfaPolicyDto),
  ),
}) {
  constructor(protected readonly mfa: MfaEnrolmentService) {
    super();
  }
}
