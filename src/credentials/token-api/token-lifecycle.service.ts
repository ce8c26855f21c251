import { Injectable } from '@nestjs/common';
import { AuthErrors } from '../../base/common/auth/auth.errors.js';
import { TokensErrors } from '../tokens/tokens.errors.js';
import type { Request } from 'express';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { headerCredential } from '../../base/common/auth/credentials.js';
import type { TokenDto, TokenOutputDto } from '../tokens/dto/token.dto.js';
import { TokenQueriesService } from '../tokens/token-queries.service.js';
import { tokenView } from '../tokens/token-view.js';
import { TokensService } from '../tokens/tokens.service.js';
import { CredentialMintService } from '../mint/credential-mint.service.js';
import { fromAuth } from '../../delivery/audit/audit-origin.js';

/** The caller-facing token operations of /v1/auth/token/. */
@Injectable()
export class TokenLifecycleService {
  constructor(
    private readonly tokens: TokensService,
    private readonly queries: TokenQueriesService,
    private readonly mint: CredentialMintService,
  ) {}

  /** Built from the guard's lookup alone: validation is one database round-trip. */
  describeCurrent(auth: AuthContext, req: Request): TokenDto {
    return {
      ...tokenView(
        auth.record,
        { is_admin: auth.isAdmin, is_super_admin: auth.isSuperAdmin },
        auth.domain,
        auth.systemDomains,
      ),
      token: headerCredential(req).token as string,
    };
  }

  async describe(tokenId: string, auth: AuthContext): Promise<TokenOutputDto> {
    const record = await this.tokens.findInDomain(tokenId, auth.systemDomainId);
    if (!record) throw TokensErrors.NOT_FOUND();
    return this.queries.view(record);
  }

  /**
   * A new token of the same kind for the same user, app and domain. Login tokens get a fresh login lifetime;
   * a PAT's replacement keeps the original expiry (renewing never extends a PAT). OAuth access tokens are
   * renewed with the refresh_token grant instead. With `revokeCurrent`, issue and revoke are one transaction.
   */
  async renew(auth: AuthContext, revokeCurrent: boolean): Promise<TokenDto> {
    if (auth.kind === 'OAUTH') {
      throw TokensErrors.OAUTH_RENEWAL();
    }
    const current = await this.tokens.findById(auth.tokenId);
    const issued = await this.tokens.transaction(async (em) => {
      if (revokeCurrent && !(await this.tokens.revoke(current.id, { em, requestId: auth.requestId })))
        throw AuthErrors.TOKEN_REVOKED();
      // a renewed token is never wider than the one it replaces
      return this.mint.renewal(em, auth, current);
    });
    return { ...(await this.queries.view(issued.record)), token: issued.token };
  }

  /**
   * Revokes a token for the caller (the caller's own, or one the guard let the caller name: any of the domain
   * for its administrators). A super administrator's tokens are revoked only by themselves or another super
   * administrator, as only they may change a super administrator (users' rank rule).
   */
  async revoke(tokenId: string, auth: AuthContext): Promise<void> {
    if (!auth.isSuperAdmin) {
      const owner = await this.tokens.ownerOf(tokenId);
      if (owner?.is_super_admin && owner.id !== auth.userId) throw TokensErrors.SUPER_ADMIN_TOKEN();
    }
    await this.tokens.revoke(tokenId, { requestId: auth.requestId, origin: fromAuth(auth) });
  }
}
