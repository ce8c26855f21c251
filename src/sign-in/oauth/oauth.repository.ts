import { Injectable } from '@nestjs/common';
import { type EntityManager, IsNull } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { AppEntity } from '../../base/model/app.entity.js';
import { returningRows } from '../../base/database/returning-rows.js';
import { activeMemberSql } from '../../credentials/tokens/tokens.service.js';
import { AuthorizationCodeEntity } from '../../base/model/authorization-code.entity.js';
import { RefreshTokenEntity } from '../../base/model/refresh-token.entity.js';
import { TokenEntity } from '../../base/model/token.entity.js';

/** An authorization code's row as the decision writes it. */
export type NewCode = Pick<
  AuthorizationCodeEntity,
  | 'code_hash'
  | 'app_id'
  | 'user_id'
  | 'system_domain_id'
  | 'redirect_uri'
  | 'scopes'
  | 'code_challenge'
  | 'expires'
  | 'grant_id'
  | 'is_mfa_authenticated'
>;

/**
 * The statements of the OAuth server: the apps it serves, the authorization codes, the refresh tokens of a
 * grant and the access tokens a client may revoke, for the authorization request, the grants, the token
 * endpoint and OAuthTokensService. Methods taking an EntityManager run in the caller's transaction
 * (`transaction()`); `manager` is the data source's own, for statements outside one.
 */
@Injectable()
export class OAuthRepository extends FeatureRepository {
  /** A third-party app by its client_id (the built-in sign-in apps are never OAuth clients), or null. */
  clientApp(clientId: string): Promise<AppEntity | null> {
    return this.ds.getRepository(AppEntity).findOneBy({ id: clientId, is_builtin: false });
  }

  /** Stores a new authorization code (its hash) with the request it is bound to, in the caller's transaction. */
  async insertCode(em: EntityManager, code: NewCode): Promise<void> {
    await em.getRepository(AuthorizationCodeEntity).insert(code);
  }

  /** A refresh token by its hash, of the client `appId` when given (used, revoked or expired ones too). */
  refreshToken(tokenHash: string, appId?: string): Promise<RefreshTokenEntity | null> {
    const where = appId === undefined ? { token_hash: tokenHash } : { token_hash: tokenHash, app_id: appId };
    return this.ds.getRepository(RefreshTokenEntity).findOneBy(where);
  }

  /** An access token record of the client `appId` by its id (revoked or expired ones too), or null. */
  clientToken(tokenId: string, appId: string): Promise<TokenEntity | null> {
    return this.ds.getRepository(TokenEntity).findOneBy({ id: tokenId, app_id: appId });
  }

  /** Claims an unused code of the client (marks it used at `now`): the code, or undefined when none was claimed. */
  async claimCode(
    em: EntityManager,
    codeHash: string,
    appId: string,
    now: Date,
  ): Promise<AuthorizationCodeEntity | undefined> {
    // raw: one conditional UPDATE … RETURNING * claims the code and reads it, so only one exchange can win
    const [code] = returningRows<AuthorizationCodeEntity>(
      await em.query(
        `UPDATE oauth_authorization_codes SET used_at = $2
         WHERE code_hash = $1 AND used_at IS NULL AND app_id = $3 RETURNING *`,
        [codeHash, now, appId],
      ),
    );
    return code;
  }

  /** The code of the client by its hash, used or not (a replay). */
  findCode(em: EntityManager, codeHash: string, appId: string): Promise<AuthorizationCodeEntity | null> {
    return em.getRepository(AuthorizationCodeEntity).findOneBy({ code_hash: codeHash, app_id: appId });
  }

  /** Whether the app still exists. */
  appExists(appId: string): Promise<boolean> {
    return this.ds.getRepository(AppEntity).existsBy({ id: appId });
  }

  /** Revokes the grant's refresh tokens not revoked yet (at the database's now()). */
  async revokeGrantRefreshTokens(em: EntityManager, grantId: string): Promise<void> {
    await em.update(
      RefreshTokenEntity,
      { grant_id: grantId, revoked_at: IsNull() },
      { revoked_at: () => 'now()' },
    );
  }

  /** Whether the user may still act in the domain. */
  async isActiveMember(userId: string, systemDomainId: string): Promise<boolean> {
    // raw: the shared active-member SQL fragment (activeMemberSql) that the token INSERT checks too
    const [row] = await this.ds.query<{ ok: boolean }[]>(`SELECT ${activeMemberSql('$1', '$2')} AS ok`, [
      userId,
      systemDomainId,
    ]);
    return row.ok;
  }
}
