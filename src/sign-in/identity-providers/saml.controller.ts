import { Body, Controller, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { type ListEnvelope, pageEnvelope } from '../../base/common/http/list-envelope.js';
import { LoginTokenDto, MultiDomainUserSystemDto } from '../../credentials/tokens/dto/token.dto.js';
import {
  MultiDomainUserSystemListDto,
  SamlLoginDto,
  SamlTokenRequestDto,
  SamlUrlDto,
} from './dto/identity-provider.dto.js';
import { SamlService } from './saml.service.js';
import { SsoLoginService } from './sso-login.service.js';
import { SamlSsoRoutes } from './saml-sso.routes.js';
import { Route } from '../../base/common/http/route.js';

/**
 * The SAML endpoints a browser and an IdP reach: none takes a credential. Sign-in ends on a 302 to the web
 * app with a single-use code (never a token in a URL), exchanged at `token/`.
 */
@ApiTags('saml')
@Controller('API/auth/v1/auth/saml')
export class SamlController extends SamlSsoRoutes {
  constructor(
    protected readonly saml: SamlService,
    protected readonly sso: SsoLoginService,
  ) {
    super();
  }

  @Route.post('login', {
    summary: 'SAMLLogin {email} → {url} that starts single sign-on at the IdP of the email’s domain',
    public: 'signin',
    ok: SamlUrlDto,
    errors: [400, { 404: 'No identity provider serves this email’s domain' }],
  })
  samlLogin(@Body() body: SamlLoginDto): Promise<{ url: string }> {
    return this.sso.loginUrl(body.email);
  }

  @Route.post('multidomain/login', {
    summary:
      '{email} → the list envelope of the domains offering it single sign-on (url starts it), one page',
    public: 'signin',
    ok: MultiDomainUserSystemListDto,
    errors: [400],
  })
  async samlMultiDomainLogin(
    @Body() body: SamlLoginDto,
    @Req() req: Request,
  ): Promise<ListEnvelope<MultiDomainUserSystemDto>> {
    const objects = await this.sso.multiDomain(body.email);
    return pageEnvelope(objects, objects.length, 1, Math.max(objects.length, 1), req.path, {});
  }

  @Route.post('token', {
    summary: 'The single-use code of the ACS redirect (valid one minute) → the Token, as password login',
    public: 'signin',
    created: LoginTokenDto,
    errors: [400, { 401: 'Unknown, used or expired code' }],
  })
  samlToken(
    @Body() body: SamlTokenRequestDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LoginTokenDto> {
    res.set('Cache-Control', 'no-store');
    return this.sso.exchange(body.code);
  }
}
