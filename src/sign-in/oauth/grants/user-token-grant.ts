import { Injectable } from '@nestjs/common';
import { Clock } from '../../../base/common/clock.js';
import { OAuthTokensService, type TokenResponse } from '../oauth-tokens.service.js';
import { OAuthRepository } from '../oauth.repository.js';
import { IdTokenService } from '../oidc/id-token.service.js';

/** The grant (authorization) an id_token is issued for. */
type IdTokenGrant = Parameters<IdTokenService['issue']>[0];

/**
 * What the grants that mint a user's tokens (authorization_code, refresh_token) are built on: their
 * collaborators, and the id_token an `openid` grant answers beside the access token.
 */
@Injectable()
export abstract class UserTokenGrant {
  constructor(
    protected readonly tokens: OAuthTokensService,
    protected readonly clock: Clock,
    protected readonly repo: OAuthRepository,
    private readonly idTokens: IdTokenService,
  ) {}

  /** OpenID Connect: `response` with the grant's id_token beside it when the grant has `openid`. */
  protected async withIdToken(
    grant: IdTokenGrant,
    response: TokenResponse,
    first: boolean,
  ): Promise<TokenResponse> {
    const idToken = await this.idTokens.issue(grant, response.access_token, first);
    return idToken ? { ...response, id_token: idToken } : response;
  }
}
