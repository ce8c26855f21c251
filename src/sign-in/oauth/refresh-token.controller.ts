import { Body, Controller, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RevokeRefreshTokenDto } from './dto/oauth.dto.js';
import { OAuthTokensService } from './oauth-tokens.service.js';
import { Route } from '../../base/common/http/route.js';

@ApiTags('oauth')
@Controller('API/auth/v1/refresh/token')
export class RefreshTokenController {
  constructor(private readonly oauthTokens: OAuthTokensService) {}

  /** Possession of the refresh token is the authority; the answer is the same whether it existed or not. */
  @Route.delete({
    summary: 'Revoke a refresh token (and the authorization it belongs to)',
    public: 'oauth',
    ok: { description: 'Empty body' },
    errors: [400],
  })
  revokeRefreshToken(@Body() body: RevokeRefreshTokenDto, @Req() req: Request): Promise<void> {
    return this.oauthTokens.revokeRefreshToken(body.refresh_token, req.id ?? null);
  }
}
