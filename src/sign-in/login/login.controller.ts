import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { SimpleLoginDto } from './dto/simple-login.dto.js';
import { LoginService } from './login.service.js';
import { type AuditOrigin, fromRequest } from '../../delivery/audit/audit-origin.js';
import { Route } from '../../base/common/http/route.js';
import { input, type RouteInput, ServiceRoutes } from '../../base/common/http/service-routes.js';

const login = ServiceRoutes<LoginService>('login');
/** Where the request came from, for the audit records (its id, address). */
const origin: RouteInput<AuditOrigin> = { ...input.requestId, pick: fromRequest };

@ApiTags('login')
@Controller('API/auth/v1/auth')
export class LoginController extends login.handlers({
  simpleLogin: login.handle(
    Route.post('simple/login', {
      summary: 'Password sign-in → the multi-platform Token form (one token per domain)',
      public: 'signin',
      created: LoginTokenDto,
      errors: [400, { 401: 'Unknown email, wrong password or inactive user (one answer)' }],
    }),
    (s, b, o) => s.simpleLogin(b.email, b.password, b.marketplace_signup_nonce, o),
    input.body(SimpleLoginDto),
    origin,
  ),
}) {
  constructor(protected readonly login: LoginService) {
    super();
  }
}
