import { Controller, HttpCode, Post, Req, Res, UseFilters } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
import { allowOrigin } from '../../base/common/http/cors.js';
import {
  IntrospectionDto,
  OAuthErrorDto,
  TokenActionFormDto,
  TokenRequestFormDto,
  TokenResponseDto,
} from './dto/oauth.dto.js';
import { OAuthExceptionFilter } from './oauth-exception.filter.js';
import { type IntrospectionResponse, TokenEndpointService } from './token-endpoint.service.js';
import type { TokenResponse } from './oauth-tokens.service.js';

function noStore(res: Response) {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

@ApiTags('oauth')
// above @Public, so applied after it: the rate limit's 429 comes in RFC 6749 form here (OAuthExceptionFilter)
@ApiTooManyRequestsResponse({ type: OAuthErrorDto, description: 'In RFC 6749 form: temporarily_unavailable' })
@Public('oauth')
@UseFilters(OAuthExceptionFilter)
@ApiConsumes('application/x-www-form-urlencoded')
@ApiBadRequestResponse({
  type: OAuthErrorDto,
  description: 'invalid_request, invalid_grant, invalid_scope, …',
})
@ApiUnauthorizedResponse({ type: OAuthErrorDto, description: 'invalid_client' })
@ApiPayloadTooLargeResponse({ type: OAuthErrorDto, description: 'invalid_request: body over 100 kB' })
@ApiServiceUnavailableResponse({ type: OAuthErrorDto, description: 'temporarily_unavailable' })
@Controller('API/auth/v1/oauth')
export class TokenEndpointController {
  constructor(private readonly endpoint: TokenEndpointService) {}

  @Post('token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'OAuth 2.0 token endpoint: client_credentials, authorization_code (PKCE), refresh_token',
  })
  @ApiBody({ type: TokenRequestFormDto })
  @ApiOkResponse({ type: TokenResponseDto })
  async createOAuthToken(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TokenResponse> {
    noStore(res);
    const { client, response } = await this.endpoint.token(req);
    allowOrigin(req, res, client.app);
    return response;
  }

  @Post('revoke')
  @HttpCode(200)
  @ApiOperation({
    summary: 'RFC 7009 revocation of an access or refresh token (200 also for unknown tokens)',
  })
  @ApiBody({ type: TokenActionFormDto })
  @ApiOkResponse({ description: 'Empty body' })
  async revokeOAuthToken(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    noStore(res);
    allowOrigin(req, res, (await this.endpoint.revoke(req)).app);
  }

  @Post('introspect')
  @HttpCode(200)
  @ApiOperation({ summary: 'RFC 7662 introspection, for confidential clients (tokens of their own domain)' })
  @ApiBody({ type: TokenActionFormDto })
  @ApiOkResponse({ type: IntrospectionDto })
  async introspectOAuthToken(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<IntrospectionResponse> {
    noStore(res);
    return (await this.endpoint.introspect(req)).response;
  }
}
