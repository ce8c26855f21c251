import { Inject, Injectable } from '@nestjs/common';
import { createHash, createHmac } from 'node:crypto';
import { compactVerify } from 'jose';
import { isUnavailable } from '../../../base/common/errors/unavailable.js';
import type { EntityManager } from 'typeorm';
import { OPENID_SCOPE } from '../../../base/common/auth/scopes.js';
import { APP_CONFIG, type BaseConfig } from '../../../base/config/config.js';
import { deriveKey, serviceSecret } from '../../../base/keys/key-encryption.js';
import { SigningKeysService } from '../../../base/keys/signing-keys.service.js';
import type { TokenEntity } from '../../../base/model/token.entity.js';
import { CredentialMintService } from '../../../credentials/mint/credential-mint.service.js';
import { assuranceOf, signedInAt } from '../../login/assurance.js';
import { OidcRepository, type Person } from './oidc.repository.js';

/** The claims of the granted scopes about a person (OpenID Connect Core §5.4): id_token and userinfo alike. */
export function personClaims(person: Person, scopes: readonly string[]): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: person.id };
  if (scopes.includes('email')) {
    claims.email = person.email;
    claims.email_verified = person.email_verified_at !== null;
  }
  if (scopes.includes('profile')) {
    // claims without a value are left out, not sent as null (§5.3.2)
    const name = [person.first_name, person.last_name].filter((p) => p).join(' ');
    if (name) claims.name = name;
    if (person.first_name) claims.given_name = person.first_name;
    if (person.last_name) claims.family_name = person.last_name;
  }
  return claims;
}

/** What a verified id_token_hint names (RP-initiated logout). */
export interface IdTokenHint {
  clientId: string;
  userId: string;
  sid: string | null;
}

/**
 * The id_tokens of the OAuth server (OpenID Connect Core §2, §3.1.3.6, §12.2). At the decision it records
 * the sign-in behind an authorization with `openid` (the approving session, its `auth_time` and the sign-in
 * authority's assurance, the request's `nonce`); at the token endpoint it issues the id_token of such a
 * grant, after the code exchange (with the nonce) and after each refresh (the same `sub`, `auth_time`, `acr`,
 * `amr` and `sid`; no nonce). The signature is the mint's (the service's rotating ES256 keys).
 */
@Injectable()
export class IdTokenService {
  private readonly sidKey: Buffer;

  constructor(
    private readonly repo: OidcRepository,
    private readonly mint: CredentialMintService,
    private readonly keys: SigningKeysService,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
  ) {
    this.sidKey = deriveKey(serviceSecret(config), 'oidc-sid');
  }

  /** The session's id in id_tokens: opaque and stable per session (the token record's id never leaves). */
  sidOf(sessionId: string): string {
    return createHmac('sha256', this.sidKey).update(sessionId).digest('base64url').slice(0, 32);
  }

  /** At an allowed decision of a request with `openid`: what the grant's id_tokens will say of the sign-in. */
  async recordGrant(
    em: EntityManager,
    g: { grantId: string; appId: string; userId: string; session: TokenEntity; nonce: string | null },
  ): Promise<void> {
    const { acr, amr } = assuranceOf(g.session);
    await this.repo.insertGrant(em, {
      grant_id: g.grantId,
      app_id: g.appId,
      user_id: g.userId,
      session_id: g.session.id,
      sid: this.sidOf(g.session.id),
      nonce: g.nonce,
      auth_time: signedInAt(g.session),
      acr,
      amr,
    });
  }

  /**
   * The id_token of a grant whose scopes include `openid`, or undefined (a plain OAuth grant: its answer is
   * unchanged). `accessToken`: the one issued beside it (`at_hash`); `first`: the code exchange, which
   * echoes the request's nonce.
   */
  async issue(
    grant: { grantId: string | null; appId: string; userId: string; scopes: readonly string[] },
    accessToken: string,
    first: boolean,
  ): Promise<string | undefined> {
    if (!grant.scopes.includes(OPENID_SCOPE) || !grant.grantId) return undefined;
    const [facts, person] = await Promise.all([
      this.repo.grant(grant.grantId),
      this.repo.person(grant.userId),
    ]);
    // both go with the user (cascade), who could not have been issued the access token beside it
    if (!facts || !person) throw new Error('id_token: the grant’s sign-in or its person is gone');
    const digest = createHash('sha256').update(accessToken).digest();
    return this.mint.idToken({
      ...personClaims(person, grant.scopes),
      aud: grant.appId,
      azp: grant.appId,
      auth_time: Math.floor(facts.auth_time.getTime() / 1000),
      ...(first && facts.nonce !== null ? { nonce: facts.nonce } : {}),
      acr: facts.acr,
      amr: facts.amr,
      sid: facts.sid,
      at_hash: digest.subarray(0, digest.length / 2).toString('base64url'),
    });
  }

  /** The authorizations approved with one session (by its `sid`), and that session's token record id. */
  sessionGrants(
    sid: string,
  ): Promise<{ grant_id: string; session_id: string; app_id: string; user_id: string }[]> {
    return this.repo.grantsOfSid(sid);
  }

  /**
   * An id_token_hint this service issued (its signature under one of the service's keys, our `iss`), expired
   * or not (a logout may come long after), or null for anything else.
   */
  async verifyHint(hint: string): Promise<IdTokenHint | null> {
    try {
      const { payload } = await compactVerify(
        hint,
        async (header) => {
          if (header.alg !== 'ES256' || typeof header.kid !== 'string') throw new Error('not ours');
          const key = await this.keys.verificationKey(header.kid);
          if (!key) throw new Error('unknown key');
          return key;
        },
        { algorithms: ['ES256'] },
      );
      const claims = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
      const aud = claims.aud;
      if (claims.iss !== this.config.http.publicBaseUrl) return null;
      if (typeof aud !== 'string' || typeof claims.sub !== 'string' || claims.azp !== aud) return null;
      return { clientId: aud, userId: claims.sub, sid: typeof claims.sid === 'string' ? claims.sid : null };
    } catch (e) {
      // a malformed, forged or foreign token is no hint; the database down is an outage (503), not a "no"
      if (isUnavailable(e)) throw e;
      return null;
    }
  }
}
