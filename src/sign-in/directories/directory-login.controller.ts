import { Body, Controller, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { fromRequest } from '../../delivery/audit/audit-origin.js';
import { DirectoryLoginService } from './directory-login.service.js';
import { DirectoryLoginDto } from './dto/directory.dto.js';
import { Route } from '../../base/common/http/route.js';

@ApiTags('login')
@Controller('API/auth/v1/auth')
export class DirectoryLoginController {
  constructor(private readonly login: DirectoryLoginService) {}

  @Route.post('ad/login', {
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
  })
  directoryLogin(@Body() body: DirectoryLoginDto, @Req() req: Request): Promise<LoginTokenDto> {
    return this.login.login(body, fromRequest(req));
  }
}
