import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ClientRegistry } from '../apps/client-registry.js';
import type { RightsCap } from '../common/auth/rights.js';
import { Clock } from '../common/clock.js';
import { isForeignKeyViolation } from '../database/sql-helpers.js';
import { generateSecret, sha256Hex } from '../common/crypto/secrets.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import {
  activeMemberSql,
  InactiveMemberError,
  type RevokeOptions,
  TokensService,
} from '../tokens/tokens.service.js';
import { invalidClient, invalidGrant } from './oauth.errors.js';
import { RefreshTokenEntity } from './refresh-token.entity.js';

export const REFRESH_TOKEN_TTL_SECONDS = 60 * 24 * 3600;

export interface TokenResponse {
  access_token: string;
  /** Same value as access_token: one published client of this API family reads `token`. */
  token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

export interface GrantSubject {
  appId: string;
  userId: string;
  systemDomainId: string;
  scopes: string[];
  grantId: string | null;
  /** Ceiling of the access token's rights; absent for authorizations the user consented to. */
  rightsCap?: RightsCap | null;
  /** The authorization was approved by a sign-in that passed a second factor. */
  mfa?: boolean;
}

/** Access tokens (the service's JWTs, looked up on every request) and rotating refresh tokens. */
@Injectable()
export class OAuthTokensService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: TokensService,
    private readonly clock: Clock,
    private readonly clients: ClientRegistry,
  ) {}

  /**
   * The access token (and with `withRefresh`, a refresh token) of a grant. The user must still be active and
   * a member of the app's domain, that domain not deactivated (the request guard would refuse the token
   * anyway): checked by the token's INSERT itself, otherwise invalid_grant with `inactiveMessage`.
   */
  async issue(
    em: EntityManager,
    s: GrantSubject,
    withRefresh: boolean,
    inactiveMessage = 'The user of this grant is no longer active in the application’s domain',
  ): Promise<TokenResponse> {
    const ttl = this.config.auth.accessTokenTtlSeconds;
    const access = await this.tokens
      .issue(
        {
          userId: s.userId,
          appId: s.appId,
          systemDomainId: s.systemDomainId,
          kind: 'OAUTH',
          scopes: s.scopes,
          grantId: s.grantId,
          rightsCap: s.rightsCap ?? null,
          mfa: s.mfa ?? false,
          expires: new Date(this.clock.now().getTime() + ttl * 1000),
          requireMember: true,
        },
        em,
      )
      .catch(async (e: unknown) => {
        if (e instanceof InactiveMemberError) throw invalidGrant(inactiveMessage);
        if (!isForeignKeyViolation(e)) throw e;
        // the client was deleted since its registration was cached (on another instance, or behind the
        // service's back). In a caller's transaction (which the violation aborted), its rows went with it.
        if (em !== this.ds.manager) throw invalidGrant('The authorization no longer exists');
        const [app] = await this.ds.query<unknown[]>('SELECT 1 FROM apps WHERE id = $1', [s.appId]);
        if (app) throw e;
        await this.clients.changed(s.appId); // drop the stale registration everywhere
        throw invalidClient('Unknown client');
      });
    const response: TokenResponse = {
      access_token: access.token,
      token: access.token,
      token_type: 'Bearer',
      expires_in: ttl,
      scope: s.scopes.join(' '),
    };
    if (withRefresh && s.grantId) {
      const refresh = generateSecret();
      await em.getRepository(RefreshTokenEntity).insert({
        token_hash: sha256Hex(refresh),
        grant_id: s.grantId,
        app_id: s.appId,
        user_id: s.userId,
        system_domain_id: s.systemDomainId,
        scopes: s.scopes,
        expires: new Date(this.clock.now().getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000),
        access_token_id: access.record.id,
        is_mfa_authenticated: s.mfa ?? false,
      });
      response.refresh_token = refresh;
    }
    return response;
  }

  /** Every refresh and access token of one authorization, at once (replay, revocation of a refresh token). */
  async revokeGrant(grantId: string, opts: RevokeOptions): Promise<void> {
    const em = opts.em;
    if (!em) return this.ds.transaction((tx) => this.revokeGrant(grantId, { ...opts, em: tx }));
    await em.query(
      'UPDATE oauth_refresh_tokens SET revoked_at = now() WHERE grant_id = $1 AND revoked_at IS NULL',
      [grantId],
    );
    // each access token revoked emits its webhook event, in this transaction
    await this.tokens.revokeGrantTokens(grantId, { em, requestId: opts.requestId });
  }

  /** Whether the user may still act in the domain (introspection of a refresh token). */
  async isActiveMember(userId: string, systemDomainId: string): Promise<boolean> {
    const [row] = await this.ds.query<{ ok: boolean }[]>(`SELECT ${activeMemberSql('$1', '$2')} AS ok`, [
      userId,
      systemDomainId,
    ]);
    return row.ok;
  }
}
