import { Body, Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { LoginTokenDto } from '../../credentials/tokens/dto/token.dto.js';
import { fromRequest } from '../../delivery/audit/audit-origin.js';
import { answerBrowser, BROWSER_ERROR, REDIRECT } from '../federation/browser-answer.js';
import { OidcLoginDto, OidcLoginUrlDto } from './dto/oidc-provider.dto.js';
import { OidcLoginService } from './oidc-login.service.js';
import { OidcProviderErrors } from './oidc-providers.errors.js';
import { Route } from '../../base/common/http/route.js';

@ApiTags('login')
@ApiExtraModels(OidcLoginUrlDto)
@Controller('API/auth/v1/auth')
export class OidcLoginController {
  constructor(private readonly login: OidcLoginService) {}

  @Post('oauth/login')
  @HttpCode(201)
  @Public('signin')
  @ApiOperation({
    summary:
      'Sign in with the domain’s OpenID provider: {email} (routed by its verified domain) or {provider_id}, ' +
      'with an optional return_to → 200 {url} to send the browser to; then {code} (the oauth_code the ' +
      'browser came back with) → 201 the Token form for that domain',
  })
  @ApiOkResponse({ type: OidcLoginUrlDto, description: 'Start: the provider’s authorization URL' })
  @ApiCreatedResponse({ type: LoginTokenDto, description: 'Finish: the Token form' })
  @ApiErrors(400, {
    401: 'The code is invalid, expired or used',
    404: 'No OpenID provider for this email or id',
    503: 'The OpenID provider did not answer',
  })
  async oidcLogin(
    @Body() body: OidcLoginDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LoginTokenDto | OidcLoginUrlDto> {
    const named = [body.email, body.provider_id, body.code].filter((v) => v !== undefined).length;
    if (named !== 1)
      throw OidcProviderErrors.INVALID({ body: 'send exactly one of email, provider_id and code' });
    if (body.code !== undefined) return this.login.exchange(body.code, fromRequest(req));
    res.status(200);
    return this.login.start({ email: body.email, providerId: body.provider_id, returnTo: body.return_to });
  }

  @Route.get('oauth/callback/:public_id', {
    summary: 'The OpenID provider’s return: 302 to return_to with ?oauth_code= (exchange it at oauth/login/)',
    public: 'signin',
    errors: [{ 400: 'A malformed path' }],
  })
  @ApiResponse({ ...REDIRECT, description: 'Back to the web app (or the consent page) with ?oauth_code=' })
  @ApiResponse(
    BROWSER_ERROR(401, 'The return was refused (state, code, signature, issuer, audience, nonce, email…)'),
  )
  @ApiResponse(BROWSER_ERROR(404, 'No such OpenID provider'))
  @ApiResponse(BROWSER_ERROR(503, 'The OpenID provider did not answer'))
  oidcCallback(
    @Param('public_id') publicId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const query = req.originalUrl.includes('?')
      ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1)
      : '';
    return answerBrowser(req, res, () => this.login.callback(publicId, query, fromRequest(req)));
  }
}
