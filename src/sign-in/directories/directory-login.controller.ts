import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { type AuditOrigin, fromRequest } from '../../delivery/audit/audit-origin.js';
import { DirectoryLoginService } from './directory-login.service.js';
import { DirectoryLoginDto } from './dto/directory.dto.js';
import { Route } from '../../base/common/http/route.js';
import { input, type RouteInput, ServiceRoutes } from '../../base/common/http/service-routes.js';

const login = ServiceRoutes<DirectoryLoginService>('login');
/** Where the request came from, for the audit records (its id, address). */
const origin: RouteInput<AuditOrigin> = { ...input.requestId, pick: fromRequest };

@ApiTags('login')
@Controller('API/auth/v1/auth')
export class DirectoryLoginController extends login.handlers({
  directoryLogin: login.call(
    'login',
    Route.post('ad/login', {
      summary:
        'Sign in against the company directory (LDAP or Active Directory) of the named domain, or of the one ' +
        'the email’s verified domain routes to → the Token form for that domain (a temporary token where the ' +
        'domain’s second factor is owed)',
      public: 'signin',
      created: LoginTokenDto,
      errors: [
        400,
        {
          401: 'Unknown person, wrong password, disabled account, or no directory for the email (one answer)',
          503: 'The directory did not answer within its timeout',
        },
      ],
    }),
    input.body(DirectoryLoginDto),
    origin,
  ),
}) {
  constructor(protected readonly login: DirectoryLoginService) {
    super();
  }
}
