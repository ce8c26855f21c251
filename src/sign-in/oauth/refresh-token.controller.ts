import { Body, Controller, Delete, HttpCode, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import type { Request } from 'express';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
import { RevokeRefreshTokenDto } from './dto/oauth.dto.js';
import { OAuthTokensService } from './oauth-tokens.service.js';

@ApiTags('oauth')
@Controller('API/auth/v1/refresh/token')
export class RefreshTokenController {
  constructor(private readonly oauthTokens: OAuthTokensService) {}

  /** Possession of the refresh token is the authority; the answer is the same whether it existed or not. */
  @Delete()
  @HttpCode(200)
  @Public('oauth')
  @ApiOperation({ summary: 'Revoke a refresh token (and the authorization it belongs to)' })
  @ApiOkResponse({ description: 'Empty body' })
  @ApiErrors(400)
  revokeRefreshToken(@Body() body: RevokeRefreshTokenDto, @Req() req: Request): Promise<void> {
    return this.oauthTokens.revokeRefreshToken(body.refresh_token, req.id ?? null);
  }
}
