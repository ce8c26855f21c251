import { Injectable } from '@nestjs/common';
import type { AuditOrigin } from '../../../delivery/audit/audit-origin.js';
import { sha256Hex } from '../../../base/common/crypto/secrets.js';
import type { AuthenticatedClient } from '../client-auth.service.js';
import { invalidGrant, invalidRequest } from '../oauth.errors.js';
import type { TokenResponse } from '../oauth-tokens.service.js';
import { VERIFIER_PATTERN, verifierMatches } from '../pkce.js';
import type { GrantHandler } from './grant.js';
import { UserTokenGrant } from './user-token-grant.js';

/**
 * Exchanges a code: single use (claimed by one conditional UPDATE), 60 seconds, same client, identical
 * redirect_uri, PKCE S256 verifier. A second use revokes what the first one issued (RFC 6749 §4.1.2). With
 * `openid` the answer carries the id_token (IdTokenService), with the request's nonce.
 */
@Injectable()
export class AuthorizationCodeGrant extends UserTokenGrant implements GrantHandler {
  readonly grantType = 'authorization_code';
  readonly parameters = ['code', 'redirect_uri', 'code_verifier'] as const;

  async handle(
    client: AuthenticatedClient,
    p: Record<string, string | undefined>,
    origin: AuditOrigin,
  ): Promise<TokenResponse> {
    if (!p.code) throw invalidRequest('code is required');
    if (!p.redirect_uri) throw invalidRequest('redirect_uri is required');
    if (!p.code_verifier) throw invalidRequest('code_verifier is required (PKCE is mandatory)');
    if (!VERIFIER_PATTERN.test(p.code_verifier)) {
      throw invalidRequest('code_verifier must be 43 to 128 unreserved characters');
    }
    const hash = sha256Hex(p.code);
    const now = this.clock.now();
    const outcome = await this.repo.transaction(async (em) => {
      const code = await this.repo.claimCode(em, hash, client.app.id, now);
      if (!code) return { replayOf: await this.repo.findCode(em, hash, client.app.id) };
      if (new Date(code.expires).getTime() <= now.getTime())
        return { error: 'The authorization code has expired' };
      if (code.redirect_uri !== p.redirect_uri)
        return { error: 'redirect_uri does not match the authorization request' };
      if (!verifierMatches(p.code_verifier as string, code.code_challenge))
        return { error: 'code_verifier does not match' };
      const response = await this.tokens.issue(
        em,
        {
          appId: code.app_id,
          userId: code.user_id,
          systemDomainId: code.system_domain_id,
          scopes: code.scopes,
          grantId: code.grant_id,
          mfa: code.is_mfa_authenticated,
          origin,
        },
        true,
      );
      return { response, code };
    });
    if ('response' in outcome && outcome.response) {
      // OpenID Connect: a grant with `openid` answers an id_token beside the access token
      const { response, code } = outcome;
      return this.withIdToken(
        { grantId: code.grant_id, appId: code.app_id, userId: code.user_id, scopes: code.scopes },
        response,
        true,
      );
    }
    if ('replayOf' in outcome) {
      if (outcome.replayOf?.used_at)
        await this.tokens.revokeGrant(outcome.replayOf.grant_id, { requestId: origin.requestId, origin });
      throw invalidGrant('The authorization code is invalid, expired or already used');
    }
    throw invalidGrant(outcome.error as string);
  }
}
