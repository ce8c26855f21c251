import { Inject, Injectable } from '@nestjs/common';
import type { AuditOrigin } from '../../delivery/audit/audit-origin.js';
import type { EntityManager } from 'typeorm';
import { ClientRegistry } from '../../credentials/apps/client-registry.js';
import { isForeignKeyViolation } from '../../base/database/sql-helpers.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { sha256Hex } from '../../base/common/crypto/secrets.js';
import { type RevokeOptions, TokensService } from '../../credentials/tokens/tokens.service.js';
import {
  CredentialMintService,
  InactiveMemberError,
  type Minted,
  type OAuthSubject,
} from '../../credentials/mint/credential-mint.service.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import type { RefreshFacts } from '../../credentials/mint/refresh-rotation.js';
import { invalidClient, invalidGrant } from './oauth.errors.js';
import { OAuthRepository } from './oauth.repository.js';

export interface TokenResponse {
  access_token: string;
  /** Same value as access_token: one published client of this API family reads `token`. */
  token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  /** OpenID Connect: the grant's scopes include `openid` (code exchange and refresh). */
  id_token?: string;
}

/** Access tokens (the service's JWTs, looked up on every request) and rotating refresh tokens. */
@Injectable()
export class OAuthTokensService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly tokens: TokensService,
    private readonly clients: ClientRegistry,
    private readonly mint: CredentialMintService,
    private readonly repo: OAuthRepository,
  ) {}

  /**
   * The access token (and with `withRefresh`, a refresh token) of a grant the user consented to, minted by
   * CredentialMintService. The user must still be active and a member of the app's domain, that domain not
   * deactivated (the request guard would refuse the token anyway): checked by the token's INSERT itself,
   * otherwise invalid_grant with `inactiveMessage`.
   */
  issue(
    em: EntityManager,
    s: OAuthSubject,
    withRefresh: boolean,
    inactiveMessage = 'The user of this grant is no longer active in the application’s domain',
  ): Promise<TokenResponse> {
    return this.respond(em, s, this.mint.oauth(em, s, withRefresh), inactiveMessage);
  }

  /** The client_credentials grant: the app acting as its user, under the app's ceiling. */
  clientCredentials(app: AppEntity, scopes: string[], origin?: AuditOrigin): Promise<TokenResponse> {
    // a single insert: no transaction needed (and concurrent grants share one commit)
    const em = this.repo.manager;
    return this.respond(
      em,
      {
        appId: app.id,
        userId: app.default_user_id as string,
        systemDomainId: app.system_domain_id,
        scopes,
        grantId: null,
      },
      this.mint.clientCredentials(em, app, scopes, origin),
      'The acting user of this client is not active',
    );
  }

  /**
   * The refresh grant's rotation in one statement (CredentialMintService.rotation): the response, or null
   * when the presented refresh token could not be claimed.
   */
  async rotate(
    presentedHash: string,
    facts: RefreshFacts,
    scopes: string[],
    origin?: AuditOrigin,
  ): Promise<TokenResponse | null> {
    const rotated = await this.mint.rotation(presentedHash, facts, scopes, origin);
    if (!rotated) return null;
    return {
      access_token: rotated.access.token,
      token: rotated.access.token,
      token_type: 'Bearer',
      expires_in: this.config.auth.accessTokenTtlSeconds,
      scope: scopes.join(' '),
      refresh_token: rotated.refresh,
    };
  }

  private async respond(
    em: EntityManager,
    s: OAuthSubject,
    minting: Promise<{ access: Minted; refresh?: string }>,
    inactiveMessage: string,
  ): Promise<TokenResponse> {
    const { access, refresh } = await minting.catch(async (e: unknown) => {
      if (e instanceof InactiveMemberError) throw invalidGrant(inactiveMessage);
      if (!isForeignKeyViolation(e)) throw e;
      // the client was deleted since its registration was cached (on another instance, or behind the
      // service's back). In a caller's transaction (which the violation aborted), its rows went with it.
      if (em !== this.repo.manager) throw invalidGrant('The authorization no longer exists');
      if (await this.repo.appExists(s.appId)) throw e;
      await this.clients.changed(s.appId); // drop the stale registration everywhere
      throw invalidClient('Unknown client');
    });
    return {
      access_token: access.token,
      token: access.token,
      token_type: 'Bearer',
      expires_in: this.config.auth.accessTokenTtlSeconds,
      scope: s.scopes.join(' '),
      ...(refresh ? { refresh_token: refresh } : {}),
    };
  }

  /** Every refresh and access token of one authorization, at once (replay, revocation of a refresh token). */
  async revokeGrant(grantId: string, opts: RevokeOptions): Promise<void> {
    const em = opts.em;
    if (!em) return this.repo.transaction((tx) => this.revokeGrant(grantId, { ...opts, em: tx }));
    await this.repo.revokeGrantRefreshTokens(em, grantId);
    // each access token revoked emits its webhook event, in this transaction
    await this.tokens.revokeGrantTokens(grantId, { em, requestId: opts.requestId, origin: opts.origin });
  }

  /**
   * DELETE API/auth/v1/refresh/token: possession of the refresh token is the authority, and revoking it ends
   * the authorization it belongs to; nothing is said of whether it existed.
   */
  async revokeRefreshToken(refreshToken: string, requestId: string | null): Promise<void> {
    const row = await this.repo.refreshToken(sha256Hex(refreshToken));
    if (row) await this.revokeGrant(row.grant_id, { requestId });
  }

  /** Whether the user may still act in the domain (introspection of a refresh token). */
  isActiveMember(userId: string, systemDomainId: string): Promise<boolean> {
    return this.repo.isActiveMember(userId, systemDomainId);
  }
}
