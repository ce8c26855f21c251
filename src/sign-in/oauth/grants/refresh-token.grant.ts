import { Injectable } from '@nestjs/common';
import type { AuditOrigin } from '../../../delivery/audit/audit-origin.js';
import { sha256Hex } from '../../../base/common/crypto/secrets.js';
import type { RefreshFacts } from '../../../credentials/mint/refresh-rotation.js';
import type { AuthenticatedClient } from '../client-auth.service.js';
import { invalidGrant, invalidRequest, invalidScope } from '../oauth.errors.js';
import type { TokenResponse } from '../oauth-tokens.service.js';
import type { RefreshTokenEntity } from '../../../base/model/refresh-token.entity.js';
import type { GrantHandler } from './grant.js';
import { UserTokenGrant } from './user-token-grant.js';

/** Refresh tokens this instance issued whose facts it remembers (a bound on memory, not on correctness). */
const MAX_KNOWN = 10_000;

/**
 * Rotation: the presented refresh token is claimed by a compare-and-set and the new access and refresh
 * tokens are stored by the same statement (one round trip: credentials/refresh-rotation.ts); of 100
 * concurrent presentations exactly one wins. Presenting a used token again revokes the whole grant: every
 * refresh and access token descended from the same authorization.
 *
 * The new access token is signed before that statement, so the presented token's facts (user, domain,
 * grant, scopes: never changed once stored) must be known first: a token this instance issued is
 * remembered by the hash of its value from its own rotation, any other is read once. Remembered facts are
 * no verdict: the statement matches them against the row, and only an unused, unrevoked, unexpired row of
 * an active member is claimed.
 */
@Injectable()
export class RefreshTokenGrant extends UserTokenGrant implements GrantHandler {
  readonly grantType = 'refresh_token';
  readonly parameters = ['refresh_token', 'scope'] as const;
  private readonly known = new Map<string, RefreshFacts>();

  async handle(
    client: AuthenticatedClient,
    p: Record<string, string | undefined>,
    origin: AuditOrigin,
  ): Promise<TokenResponse> {
    if (!p.refresh_token) throw invalidRequest('refresh_token is required');
    const hash = sha256Hex(p.refresh_token);
    let facts = this.known.get(hash);
    this.known.delete(hash); // single-use either way
    if (!facts || facts.appId !== client.app.id) {
      const row = await this.find(hash, client);
      if (!row || row.used_at || row.revoked_at || row.expires <= this.clock.now()) {
        return this.refuse(row, origin);
      }
      facts = {
        grantId: row.grant_id,
        appId: row.app_id,
        userId: row.user_id,
        systemDomainId: row.system_domain_id,
        scopes: row.scopes,
        mfa: row.is_mfa_authenticated,
      };
    }
    // narrowing only; scopes the app has lost since are dropped
    const scopes = resolveNarrowing(p.scope, facts.scopes).filter((s) =>
      client.app.allowed_scopes.includes(s),
    );
    const response = await this.tokens.rotate(hash, facts, scopes, origin);
    if (response) {
      // the new token's facts: the same grant, with the scopes it was stored with (narrowed)
      this.remember(sha256Hex(response.refresh_token as string), { ...facts, scopes });
      // OpenID Connect §12.2: a new id_token of the same sign-in (same sub, auth_time, sid), when `openid` stays
      return this.withIdToken(
        { grantId: facts.grantId, appId: facts.appId, userId: facts.userId, scopes },
        response,
        false,
      );
    }
    // not claimed: find out why (a concurrent presentation won, revoked, expired, the user gone)
    const failed = await this.find(hash, client);
    if (failed && !failed.used_at && !failed.revoked_at && failed.expires > this.clock.now()) {
      throw invalidGrant('The user of this grant is no longer active in the application’s domain');
    }
    return this.refuse(failed, origin);
  }

  private find(hash: string, client: AuthenticatedClient): Promise<RefreshTokenEntity | null> {
    return this.repo.refreshToken(hash, client.app.id);
  }

  /** A token that cannot be rotated: a used one is a replay, which revokes its whole grant. */
  private async refuse(failed: RefreshTokenEntity | null, origin: AuditOrigin): Promise<never> {
    if (failed?.used_at && !failed.revoked_at) {
      // replay: whoever holds the chain now (possibly an attacker) is signed out, the legitimate holder too
      await this.tokens.revokeGrant(failed.grant_id, { requestId: origin.requestId, origin });
      throw invalidGrant('The refresh token was already used; the authorization has been revoked');
    }
    throw invalidGrant('The refresh token is invalid, expired or revoked');
  }

  private remember(hash: string, facts: RefreshFacts): void {
    if (this.known.size >= MAX_KNOWN) this.known.delete(this.known.keys().next().value as string);
    this.known.set(hash, facts);
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
