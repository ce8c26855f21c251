import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { RightsCap } from '../common/auth/rights.js';
import { Batcher } from '../common/batcher.js';
import { sha256Hex } from '../common/crypto/secrets.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { preparedQuery } from '../database/prepared-query.js';
import { returningRows } from '../database/returning-rows.js';
import { SigningKeysService } from '../keys/signing-keys.service.js';
import { TokenEntity, type TokenKind } from '../tokens/token.entity.js';
import { activeMemberSql } from '../tokens/tokens.service.js';

export interface IssueTokenInput {
  userId: string;
  appId: string;
  systemDomainId: string;
  kind: TokenKind;
  expires: Date;
  scopes?: string[] | null;
  mfa?: boolean;
  grantId?: string | null;
  /**
   * The ceiling of the token's rights (see common/auth/rights.ts): set for every token minted for an app
   * (PAT, client_credentials, external auth); null for a user's own sign-in and for authorizations the user
   * consented to, which carry the user's rights as they are at each request.
   */
  rightsCap?: RightsCap | null;
  /**
   * Issue only if the user is active and a member of the domain, and the domain is not deactivated, checked
   * by the INSERT itself (OAuth grants: the request guard would refuse the token anyway). Otherwise the
   * issue fails with InactiveMemberError and nothing is stored.
   */
  requireMember?: boolean;
  /** When the person proved who they are (a sign-in, kept through renewals); null for app tokens. */
  authTime?: Date | null;
}

/** The user a token was to be issued to may not act in the domain (see IssueTokenInput.requireMember). */
export class InactiveMemberError extends Error {
  constructor() {
    super('The user is not an active member of the domain');
  }
}

/**
 * The token generator: signs a JWT and stores its record (hash only). Private to the credentials module:
 * every token is minted through CredentialMintService, which decides whose rights it may carry (an
 * architecture test holds every other file to that).
 */
@Injectable()
export class TokenIssuer {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly keys: SigningKeysService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private readonly inserts = new Batcher<TokenRow, Stamps | undefined>((rows) => insertTokens(this.ds, rows));

  /** Signs a JWT and stores its record (hash only). Pass `em` to issue inside a caller's transaction. */
  async issue(
    input: IssueTokenInput,
    em: EntityManager = this.ds.manager,
  ): Promise<{ token: string; record: TokenEntity }> {
    const signed = await this.sign(input);
    const { row } = signed;
    // outside a caller's transaction, concurrent issues share one INSERT and one commit (group commit)
    const stamps =
      em === this.ds.manager ? await this.inserts.add(row) : (await insertTokens(this.ds, [row], em))[0];
    if (!stamps) throw new InactiveMemberError();
    return { token: signed.token, record: signed.record(stamps) };
  }

  /**
   * The JWT and the row that will record it (hash only), not yet stored: for a statement that stores the
   * row together with other changes (the refresh rotation). `record` builds the entity once stored.
   */
  async sign(input: IssueTokenInput): Promise<SignedToken> {
    const id = randomUUID();
    // the contract's claims, plus the standard ones other services check (RFC 9068 for OAuth tokens)
    const claims: Record<string, unknown> = {
      id,
      app_id: input.appId,
      sys: input.systemDomainId,
      user_id: input.userId,
      iss: this.config.http.publicBaseUrl,
      sub: input.userId,
    };
    if (input.kind === 'OAUTH') {
      claims.client_id = input.appId;
      claims.scope = (input.scopes ?? []).join(' ');
    }
    const jwt = await this.keys.sign(claims, input.expires);
    const values = {
      id,
      user_id: input.userId,
      app_id: input.appId,
      system_domain_id: input.systemDomainId,
      kind: input.kind,
      scopes: input.scopes ?? null,
      expires: input.expires,
      is_mfa_authenticated: input.mfa ?? false,
      grant_id: input.grantId ?? null,
      rights_cap: input.rightsCap ?? null,
      auth_time: input.authTime ?? null,
    };
    return {
      token: jwt,
      row: { ...values, token_hash: sha256Hex(jwt), require_member: input.requireMember ?? false },
      record: (stamps) =>
        Object.assign(new TokenEntity(), values, {
          revoked_at: null,
          last_used_at: null,
          date_created: new Date(stamps.date_created),
          date_modified: new Date(stamps.date_modified),
        }),
    };
  }
}

/** A signed token and its row, not yet stored (TokenIssuer.sign). */
export interface SignedToken {
  token: string;
  row: TokenRow;
  record: (stamps: Stamps) => TokenEntity;
}

export type TokenRow = Omit<TokenEntity, 'revoked_at' | 'last_used_at' | 'date_created' | 'date_modified'> & {
  require_member: boolean;
};
export type Stamps = { date_created: Date | string; date_modified: Date | string };

/**
 * Any number of token rows in one statement of fixed text (column arrays through unnest), so PostgreSQL
 * plans it once per connection as a prepared statement whatever the batch size. Rows that require an
 * active member are inserted only if their user is one (checked in the same statement, so no request
 * can slip between a check and the insert). Scopes and ceilings travel space-joined (an array of arrays would
 be flattened by unnest): scope and role names have no spaces.
 */
const INSERT_TOKENS_SQL = `
INSERT INTO tokens (id, user_id, app_id, system_domain_id, kind, scopes, expires, is_mfa_authenticated,
                    grant_id, token_hash, rights_cap, auth_time)
SELECT v.id, v.user_id, v.app_id, v.system_domain_id, v.kind, string_to_array(v.scopes, ' '), v.expires,
       v.mfa, v.grant_id, v.token_hash, string_to_array(v.rights_cap, ' '), v.auth_time
FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::timestamptz[],
            $8::boolean[], $9::uuid[], $10::text[], $11::boolean[], $12::text[], $13::timestamptz[])
     AS v(id, user_id, app_id, system_domain_id, kind, scopes, expires, mfa, grant_id, token_hash, require_member,
          rights_cap, auth_time)
WHERE NOT v.require_member OR ${activeMemberSql('v.user_id', 'v.system_domain_id')}
RETURNING id, date_created, date_modified`;

/** Inserts the rows; each one's database timestamps, or undefined where its member check failed. */
async function insertTokens(
  ds: DataSource,
  rows: TokenRow[],
  em?: EntityManager,
): Promise<(Stamps | undefined)[]> {
  const values = [
    rows.map((r) => r.id),
    rows.map((r) => r.user_id),
    rows.map((r) => r.app_id),
    rows.map((r) => r.system_domain_id),
    rows.map((r) => r.kind),
    rows.map((r) => (r.scopes ? r.scopes.join(' ') : null)),
    rows.map((r) => r.expires.toISOString()),
    rows.map((r) => r.is_mfa_authenticated),
    rows.map((r) => r.grant_id),
    rows.map((r) => r.token_hash),
    rows.map((r) => r.require_member),
    rows.map((r) => (r.rights_cap ? r.rights_cap.join(' ') : null)),
    rows.map((r) => (r.auth_time ? r.auth_time.toISOString() : null)),
  ];
  // inside a caller's transaction the statement must run on that transaction's connection
  const res: (Stamps & { id: string })[] = em
    ? returningRows(await em.query(INSERT_TOKENS_SQL, values))
    : await preparedQuery(ds, 'portcullis_insert_tokens', INSERT_TOKENS_SQL, values);
  const byId = new Map(res.map((r) => [r.id, r]));
  return rows.map((r) => byId.get(r.id));
}
