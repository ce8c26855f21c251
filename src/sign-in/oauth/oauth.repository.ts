import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, IsNull } from 'typeorm';
import { AppEntity } from '../../base/model/app.entity.js';
import { returningRows } from '../../base/database/returning-rows.js';
import { activeMemberSql } from '../../credentials/tokens/tokens.service.js';
import { AuthorizationCodeEntity } from '../../base/model/authorization-code.entity.js';
import { RefreshTokenEntity } from '../../base/model/refresh-token.entity.js';

/**
 * The statements of the OAuth grants and their tokens (codes, refresh tokens of a grant), for
 * AuthorizationCodeGrant and OAuthTokensService. Methods taking an EntityManager run in the caller's transaction.
 */
@Injectable()
export class OAuthRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

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
