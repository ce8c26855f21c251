import { Injectable } from '@nestjs/common';
import { type EntityManager } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { preparedQuery } from '../../base/database/prepared-query.js';
import { returningRows } from '../../base/database/returning-rows.js';
import { RefreshTokenEntity } from '../../base/model/refresh-token.entity.js';
import { rotateRefreshToken } from './refresh-rotation.js';
import { activeMemberSql } from '../tokens/tokens.service.js';
import type { Stamps, TokenRow } from './token-issuer.js';
import {
  auditRecordCtes,
  auditRecordParams,
  type AuditRecord,
} from '../../delivery/audit/audit-record-sql.js';

/**
 * Any number of token rows in one statement of fixed text (column arrays through unnest), so PostgreSQL
 * plans it once per connection as a prepared statement whatever the batch size. Rows that require an
 * active member are inserted only if their user is one (checked in the same statement, so no request
 * can slip between a check and the insert). Scopes and ceilings travel space-joined (an array of arrays would
 * be flattened by unnest): scope, role and `amr` names have no spaces.
 */
const INSERT_TOKENS_SQL = `
INSERT INTO tokens (id, user_id, app_id, system_domain_id, kind, scopes, expires, is_mfa_authenticated,
                    grant_id, token_hash, rights_cap, auth_time, vouched_by_tenant, amr)
SELECT v.id, v.user_id, v.app_id, v.system_domain_id, v.kind, string_to_array(v.scopes, ' '), v.expires,
       v.mfa, v.grant_id, v.token_hash, string_to_array(v.rights_cap, ' '), v.auth_time, v.vouched_by_tenant,
       string_to_array(v.amr, ' ')
FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::timestamptz[],
            $8::boolean[], $9::uuid[], $10::text[], $11::boolean[], $12::text[], $13::timestamptz[],
            $14::boolean[], $15::text[])
     AS v(id, user_id, app_id, system_domain_id, kind, scopes, expires, mfa, grant_id, token_hash, require_member,
          rights_cap, auth_time, vouched_by_tenant, amr)
WHERE NOT v.require_member OR ${activeMemberSql('v.user_id', 'v.system_domain_id')}
RETURNING id, date_created, date_modified`;

/**
 * The same with the tokens' audit records and their webhook fan-out (AuditRepository's auditRecordCtes,
 * parameters $18 on, each record naming its token): a token and its record commit together, and a token the
 * member check refused leaves no record. `deliveries` is the number of webhook deliveries queued, on every row.
 * A sign-in's own writes ride along ($16, $17: TokenRow's clear_factor and touch_last_login): the guessing
 * defence's count of the factor that succeeded is forgotten and `last_login` set for the tokens stored, so a
 * password sign-in is this statement and its first read (LoginRepository.signInAccount) besides argon2id.
 */
const INSERT_TOKENS_AUDITED_SQL = `
WITH issued AS (${INSERT_TOKENS_SQL}),
signed_in AS (
  SELECT s.user_id, s.clear_factor, s.touch FROM issued i
    JOIN unnest($1::uuid[], $2::uuid[], $16::text[], $17::boolean[]) AS s(id, user_id, clear_factor, touch)
      ON s.id = i.id
   WHERE s.clear_factor IS NOT NULL OR s.touch
), cleared AS (
  DELETE FROM login_attempts a USING signed_in s WHERE a.user_id = s.user_id AND a.factor = s.clear_factor
), touched AS (
  UPDATE users SET last_login = now(), date_modified = CURRENT_TIMESTAMP
   WHERE id IN (SELECT user_id FROM signed_in WHERE touch)
),
${auditRecordCtes(18, 'SELECT id FROM issued')}
SELECT id, date_created, date_modified, (SELECT count(*) FROM audit_deliveries)::int AS deliveries FROM issued`;

/**
 * The mint's statements (private to the credentials module, like TokenIssuer): the token rows, refresh tokens
 * and the refresh rotation. `manager` is the data source's: a token issued through it is outside any caller's
 * transaction, so it joins the issuer's group insert.
 */
@Injectable()
export class CredentialsRepository extends FeatureRepository {
  /**
   * Inserts the rows, and `audits` (records about some of them, each with its token's id) in the same
   * statement: each row's database timestamps, or undefined where its member check failed (its record is
   * not written either), and the number of webhook deliveries the records queued.
   */
  async insertTokens(
    rows: TokenRow[],
    audits: { tokenId: string; record: AuditRecord }[] = [],
    em?: EntityManager,
  ): Promise<{ stamps: (Stamps | undefined)[]; deliveries: number }> {
    const values: unknown[] = [
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
      rows.map((r) => r.vouched_by_tenant),
      rows.map((r) => (r.amr ? r.amr.join(' ') : null)),
    ];
    const audited = audits.length > 0;
    if (audited)
      values.push(
        rows.map((r) => r.clear_factor),
        rows.map((r) => r.touch_last_login),
        ...auditRecordParams(audits.map((a) => a.record)),
        audits.map((a) => a.tokenId),
      );
    const [name, sql] = audited
      ? ['portcullis_insert_tokens_audited', INSERT_TOKENS_AUDITED_SQL]
      : ['portcullis_insert_tokens', INSERT_TOKENS_SQL];
    // inside a caller's transaction the statement must run on that transaction's connection
    // raw: INSERT … SELECT FROM unnest(…) with the member check and RETURNING (and the records' CTEs), one
    // fixed text for any batch
    const res: (Stamps & { id: string; deliveries?: number })[] = em
      ? returningRows(await em.query(sql, values))
      : await preparedQuery(this.ds, name, sql, values);
    const byId = new Map(res.map((r) => [r.id, r]));
    return { stamps: rows.map((r) => byId.get(r.id)), deliveries: Number(res[0]?.deliveries ?? 0) };
  }

  /** A new refresh token's row (its hash only), in the grant's transaction. */
  async insertRefreshToken(
    em: EntityManager,
    values: Pick<
      RefreshTokenEntity,
      | 'token_hash'
      | 'grant_id'
      | 'app_id'
      | 'user_id'
      | 'system_domain_id'
      | 'scopes'
      | 'expires'
      | 'access_token_id'
      | 'is_mfa_authenticated'
    >,
  ): Promise<void> {
    await em.getRepository(RefreshTokenEntity).insert(values);
  }

  /** The refresh grant's rotation, one prepared statement (refresh-rotation.ts): undefined when nothing was claimed. */
  rotateRefreshToken(r: Parameters<typeof rotateRefreshToken>[1]): ReturnType<typeof rotateRefreshToken> {
    return rotateRefreshToken(this.ds, r);
  }
}
