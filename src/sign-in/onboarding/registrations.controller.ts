import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { VerificationResponseDto } from './dto/domain-from-template.dto.js';
import {
  CountriesQueryDto,
  CountryListDto,
  RegistrationBodyDto,
  RegistrationDto,
} from './dto/registration.dto.js';
import { RegistrationsService } from './registrations.service.js';
import { WebflowContentService } from './webflow-content.service.js';
import { Route } from '../../base/common/http/route.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';
import { RegistrationContentRoutes } from './registration-content.routes.js';

const DISABLED = 'Registration is switched off (REGISTRATION_ENABLED=false)';
const registrations = ServiceRoutes<RegistrationsService>('registrations');

/** Self-service registration (no credentials), the countries, and the registration pages' content. */
@ApiTags('registrations')
@ApiErrors(400)
@Controller('API/auth/v1/registrations')
export class RegistrationsController extends registrations.handlers(
  {
    createRegistration: registrations.call(
      'register',
      Route.post({
        summary:
          'Register: mails a verification link. The same answer whether or not the email has an account (its owner gets a different mail)',
        public: 'registration',
        created: RegistrationDto,
        errors: [{ 403: DISABLED, 409: 'The same email was registered concurrently' }],
      }),
      input.body(RegistrationBodyDto),
    ),
    verifyRegistration: registrations.call(
      'verify',
      Route.post('verify/:email_hash', {
        summary:
          'Verify the email through the mailed link: creates the account and its domain from the template and signs the person in (auto_login)',
        public: 'signin',
        created: VerificationResponseDto,
        errors: [404, { 403: DISABLED, 419: 'The link expired, was used or was replaced' }],
      }),
      input.param('email_hash'),
      input.requestId,
    ),
    listCountries: registrations.call(
      'countries',
      Route.get('countries', {
        summary: 'ISO 3166-1 countries, sorted by name (page style, per_page up to 1000; query)',
        public: 'anonymous',
        ok: CountryListDto,
      }),
      input.query(CountriesQueryDto),
      input.path,
    ),
  },
  RegistrationContentRoutes,
) {
  constructor(
    protected readonly registrations: RegistrationsService,
    protected readonly content: WebflowContentService,
  ) {
    super();
  }
}
