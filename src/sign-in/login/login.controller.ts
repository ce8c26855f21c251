import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
import { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { SimpleLoginDto } from './dto/simple-login.dto.js';
import { LoginService } from './login.service.js';
import { fromRequest } from '../../delivery/audit/audit-origin.js';

@ApiTags('login')
@Controller('API/auth/v1/auth')
export class LoginController {
  constructor(private readonly login: LoginService) {}

  @Post('simple/login')
  @HttpCode(201)
  @Public('signin')
  @ApiOperation({ summary: 'Password sign-in → the multi-platform Token form (one token per domain)' })
  @ApiCreatedResponse({ type: LoginTokenDto })
  @ApiErrors(400, { 401: 'Unknown email, wrong password or inactive user (one answer)' })
  simpleLogin(@Body() body: SimpleLoginDto, @Req() req: Request): Promise<LoginTokenDto> {
    return this.login.simpleLogin(body.email, body.password, body.marketplace_signup_nonce, fromRequest(req));
  }
}
