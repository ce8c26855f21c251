import { Inject, Injectable } from '@nestjs/common';
import { fromRequest } from '../../delivery/audit/audit-origin.js';
import type { Request } from 'express';
import { Clock } from '../../base/common/clock.js';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import { ApiError } from '../../base/common/errors/api-error.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { TokensService } from '../../credentials/tokens/tokens.service.js';
import { type AuthenticatedClient, ClientAuthService } from './client-auth.service.js';
import { readForm } from './form.js';
import { GrantRegistry } from './grants/grant-registry.js';
import { invalidClient, invalidRequest } from './oauth.errors.js';
import { OAuthTokensService, type TokenResponse } from './oauth-tokens.service.js';
import { OAuthRepository } from './oauth.repository.js';
import { TokenVerifier } from '../../auth/token-verifier.js';

export interface IntrospectionResponse {
  active: boolean;
  [claim: string]: unknown;
}

/** The token endpoint as a pipeline, plus RFC 7009 revocation and RFC 7662 introspection. */
@Injectable()
export class TokenEndpointService {
  constructor(
    private readonly repo: OAuthRepository,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly clients: ClientAuthService,
    private readonly grants: GrantRegistry,
    private readonly oauthTokens: OAuthTokensService,
    private readonly tokens: TokensService,
    private readonly jwt: TokenVerifier,
    private readonly clock: Clock,
  ) {}

  /**
   * client authentication → grant lookup → parameter allowlist → grant handler (which checks scopes). The
   * client comes first: an unknown or unauthenticated client learns nothing about grants, and a service-account
   * app is unauthorized_client whatever grant it names.
   */
  async token(req: Request): Promise<{ client: AuthenticatedClient; response: TokenResponse }> {
    const form = readForm(req);
    const client = await this.clients.authenticate(req, form);
    // RFC 6749 §5.2: a missing parameter is invalid_request; unsupported_grant_type is for one we do not offer
    if (form.grant_type === undefined) throw invalidRequest('grant_type is required');
    const grant = this.grants.get(form.grant_type);
    const response = await grant.handle(client, GrantRegistry.pick(form, grant.parameters), fromRequest(req));
    return { client, response };
  }

  /** RFC 7009: always 200 for tokens that are unknown or not this client's (no oracle). */
  async revoke(req: Request): Promise<AuthenticatedClient> {
    const form = readForm(req);
    const client = await this.clients.authenticate(req, form);
    if (!form.token) throw invalidRequest('token is required');
    const refresh = await this.repo.refreshToken(sha256Hex(form.token), client.app.id);
    if (refresh) {
      // revoking a refresh token ends the authorization it belongs to (RFC 7009 §2.1)
      await this.oauthTokens.revokeGrant(refresh.grant_id, { requestId: req.id ?? null });
      return client;
    }
    const claims = await this.jwt.verifyOrNull(form.token);
    if (claims && claims.app_id === client.app.id) {
      const record = await this.repo.clientToken(claims.id, client.app.id);
      if (record) await this.tokens.revoke(record.id, { requestId: req.id ?? null });
    }
    return client;
  }

  /** RFC 7662, for confidential clients: tokens of the client's own domain only; anything else is inactive. */
  async introspect(req: Request): Promise<{ client: AuthenticatedClient; response: IntrospectionResponse }> {
    const form = readForm(req);
    const client = await this.clients.authenticate(req, form);
    if (!client.authenticated) throw invalidClient('Introspection is for confidential clients');
    if (!form.token) throw invalidRequest('token is required');
    const inactive = { client, response: { active: false } };
    const refresh = await this.repo.refreshToken(sha256Hex(form.token));
    if (refresh) {
      const live =
        !refresh.used_at &&
        !refresh.revoked_at &&
        new Date(refresh.expires).getTime() > this.clock.now().getTime();
      if (!live || refresh.system_domain_id !== client.app.system_domain_id) return inactive;
      // a refresh token whose user may no longer use it is as dead as the grant would find it
      if (!(await this.oauthTokens.isActiveMember(refresh.user_id, refresh.system_domain_id)))
        return inactive;
      return {
        client,
        response: {
          active: true,
          token_type: 'refresh_token',
          scope: refresh.scopes.join(' '),
          client_id: refresh.app_id,
          sub: refresh.user_id,
          exp: Math.floor(new Date(refresh.expires).getTime() / 1000),
          iat: Math.floor(new Date(refresh.date_created).getTime() / 1000),
          iss: this.config.http.publicBaseUrl,
        },
      };
    }
    const claims = await this.jwt.verifyOrNull(form.token);
    if (!claims) return inactive;
    try {
      const auth = await this.tokens.authenticate(claims, form.token, req.id as string);
      if (auth.systemDomainId !== client.app.system_domain_id) return inactive;
      return {
        client,
        response: {
          active: true,
          token_type: 'Bearer',
          scope: (auth.scopes ?? []).join(' '),
          client_id: auth.appId,
          sub: auth.userId,
          username: auth.user.email,
          exp: Math.floor(auth.expires.getTime() / 1000),
          iat: claims.iat,
          iss: this.config.http.publicBaseUrl,
          jti: auth.tokenId,
          sys: auth.systemDomainId,
          token_kind: auth.kind,
        },
      };
    } catch (e) {
      // refused by the lookup (revoked, expired, user inactive…) → inactive; a database fault stays a fault
      if (e instanceof ApiError) return inactive;
      throw e;
    }
  }
}
