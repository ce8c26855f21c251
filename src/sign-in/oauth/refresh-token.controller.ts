import { Body, Controller, Delete, HttpCode, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../base/common/http/api-errors.js';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { Public } from '../../base/common/auth/authenticated.decorator.js';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import { RevokeRefreshTokenDto } from './dto/oauth.dto.js';
import { OAuthTokensService } from './oauth-tokens.service.js';
import { RefreshTokenEntity } from '../../base/model/refresh-token.entity.js';

@ApiTags('oauth')
@Controller('API/auth/v1/refresh/token')
export class RefreshTokenController {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly oauthTokens: OAuthTokensService,
  ) {}

  /** Possession of the refresh token is the authority; the answer is the same whether it existed or not. */
  @Delete()
  @HttpCode(200)
  @Public('oauth')
  @ApiOperation({ summary: 'Revoke a refresh token (and the authorization it belongs to)' })
  @ApiOkResponse({ description: 'Empty body' })
  @ApiErrors(400)
  async revokeRefreshToken(@Body() body: RevokeRefreshTokenDto, @Req() req: Request): Promise<void> {
    const row = await this.ds
      .getRepository(RefreshTokenEntity)
      .findOneBy({ token_hash: sha256Hex(body.refresh_token) });
    if (row) await this.oauthTokens.revokeGrant(row.grant_id, { requestId: req.id ?? null });
  }
}
