import { Body, Controller, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { SimpleLoginDto } from './dto/simple-login.dto.js';
import { LoginService } from './login.service.js';
import { fromRequest } from '../../delivery/audit/audit-origin.js';
import { Route } from '../../base/common/http/route.js';

@ApiTags('login')
@Controller('API/auth/v1/auth')
export class LoginController {
  constructor(private readonly login: LoginService) {}

  @Route.post('simple/login', {
    summary: 'Password sign-in → the multi-platform Token form (one token per domain)',
    public: 'signin',
    created: LoginTokenDto,
    errors: [400, { 401: 'Unknown email, wrong password or inactive user (one answer)' }],
  })
  simpleLogin(@Body() body: SimpleLoginDto, @Req() req: Request): Promise<LoginTokenDto> {
    return this.login.simpleLogin(body.email, body.password, body.marketplace_signup_nonce, fromRequest(req));
  }
}
