import { Injectable } from '@nestjs/common';
import type { AuditOrigin } from '../../../delivery/audit/audit-origin.js';
import type { AuthenticatedClient } from '../client-auth.service.js';
import { invalidClient, unauthorizedClient } from '../oauth.errors.js';
import { OAuthTokensService, type TokenResponse } from '../oauth-tokens.service.js';
import { resolveScopes } from '../scope-request.js';
import type { GrantHandler } from './grant.js';

/** Backend services: a confidential client acting as its default user. No refresh token. */
@Injectable()
export class ClientCredentialsGrant implements GrantHandler {
  readonly grantType = 'client_credentials';
  readonly parameters = ['scope'] as const;

  constructor(private readonly tokens: OAuthTokensService) {}

  async handle(
    client: AuthenticatedClient,
    params: Record<string, string | undefined>,
    origin: AuditOrigin,
  ): Promise<TokenResponse> {
    const { app } = client;
    if (app.oauth_client_type !== 'confidential' || !client.authenticated) {
      throw invalidClient('Public clients cannot use the client_credentials grant');
    }
    if (!app.default_user_id)
      throw unauthorizedClient('This client has no acting user (default_user_id) for client_credentials');
    return this.tokens.clientCredentials(app, resolveScopes(params.scope, app.allowed_scopes), origin);
  }
}
