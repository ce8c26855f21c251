import { Injectable } from '@nestjs/common';
import type { AuditOrigin } from '../../audit/audit-origin.js';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock.js';
import { sha256Hex } from '../../common/crypto/secrets.js';
import type { AuthenticatedClient } from '../client-auth.service.js';
import { invalidGrant, invalidRequest, invalidScope } from '../oauth.errors.js';
import { OAuthTokensService, type TokenResponse } from '../oauth-tokens.service.js';
import { RefreshTokenEntity } from '../refresh-token.entity.js';
import { returningRows } from '../../database/returning-rows.js';
import type { GrantHandler } from './grant.js';

/**
 * Rotation: the presented refresh token is claimed by one compare-and-set UPDATE (of 100 concurrent
 * presentations exactly one wins) and a new one is issued in the same transaction. Presenting a used token
 * again revokes the whole grant: every refresh and access token descended from the same authorization.
 */
@Injectable()
export class RefreshTokenGrant implements GrantHandler {
  readonly grantType = 'refresh_token';
  readonly parameters = ['refresh_token', 'scope'] as const;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tokens: OAuthTokensService,
    private readonly clock: Clock,
  ) {}

  async handle(
    client: AuthenticatedClient,
    p: Record<string, string | undefined>,
    origin: AuditOrigin,
  ): Promise<TokenResponse> {
    if (!p.refresh_token) throw invalidRequest('refresh_token is required');
    const hash = sha256Hex(p.refresh_token);
    const now = this.clock.now();
    const outcome = await this.ds.transaction(async (em) => {
      const [row] = returningRows<RefreshTokenEntity>(
        await em.query(
          `UPDATE oauth_refresh_tokens SET used_at = $2
           WHERE token_hash = $1 AND app_id = $3 AND used_at IS NULL AND revoked_at IS NULL AND expires > $2
           RETURNING *`,
          [hash, now, client.app.id],
        ),
      );
      if (!row)
        return {
          failed: await em
            .getRepository(RefreshTokenEntity)
            .findOneBy({ token_hash: hash, app_id: client.app.id }),
        };
      // narrowing only; scopes the app has lost since are dropped
      const scopes = resolveNarrowing(p.scope, row.scopes).filter((s) =>
        client.app.allowed_scopes.includes(s),
      );
      const response = await this.tokens.issue(
        em,
        {
          appId: row.app_id,
          userId: row.user_id,
          systemDomainId: row.system_domain_id,
          scopes,
          grantId: row.grant_id,
          mfa: row.is_mfa_authenticated,
          origin,
        },
        true,
      );
      return { response };
    });
    if ('response' in outcome && outcome.response) return outcome.response;
    const failed = 'failed' in outcome ? outcome.failed : null;
    if (failed?.used_at && !failed.revoked_at) {
      // replay: whoever holds the chain now (possibly an attacker) is signed out, the legitimate holder too
      await this.tokens.revokeGrant(failed.grant_id, { requestId: origin.requestId, origin });
      throw invalidGrant('The refresh token was already used; the authorization has been revoked');
    }
    throw invalidGrant('The refresh token is invalid, expired or revoked');
  }
}

function resolveNarrowing(requested: string | undefined, granted: string[]): string[] {
  if (requested === undefined) return granted;
  const asked = [...new Set(requested.split(' ').filter((s) => s !== ''))];
  if (asked.some((s) => !granted.includes(s))) {
    throw invalidScope(granted, 'A refresh may only narrow the scope of the authorization; allowed scopes');
  }
  return asked;
}
