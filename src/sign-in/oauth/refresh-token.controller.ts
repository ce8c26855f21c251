import { Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RevokeRefreshTokenDto } from './dto/oauth.dto.js';
import { OAuthTokensService } from './oauth-tokens.service.js';
import { Route } from '../../base/common/http/route.js';
import { input, ServiceRoutes } from '../../base/common/http/service-routes.js';

const oauthTokens = ServiceRoutes<OAuthTokensService>('oauthTokens');

@ApiTags('oauth')
@Controller('API/auth/v1/refresh/token')
export class RefreshTokenController extends oauthTokens.handlers({
  /** Possession of the refresh token is the authority; the answer is the same whether it existed or not. */
  revokeRefreshToken: oauthTokens.handle(
    Route.delete({
      summary: 'Revoke a refresh token (and the authorization it belongs to)',
      public: 'oauth',
      ok: { description: 'Empty body' },
      errors: [400],
    }),
    (s, b, r) => s.revokeRefreshToken(b.refresh_token, r),
    input.body(RevokeRefreshTokenDto),
    input.requestId,
  ),
}) {
  constructor(protected readonly oauthTokens: OAuthTokensService) {
    super();
  }
}
