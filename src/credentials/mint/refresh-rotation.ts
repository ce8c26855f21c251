import type { DataSource } from 'typeorm';
import { preparedQuery } from '../../base/database/prepared-query.js';
import { activeMemberSql } from '../tokens/tokens.service.js';
import type { Stamps, TokenRow } from './token-issuer.js';
import {
  auditRecordCtes,
  auditRecordParams,
  type AuditRecord,
} from '../../delivery/audit/audit-record-sql.js';

/**
 * The facts of a refresh token that never change once it is stored: what an access token minted from it
 * is signed with. Known before the rotation (from the previous rotation on this instance, or one read), so
 * the new tokens can be signed first and the rotation stored in one statement.
 */
export interface RefreshFacts {
  grantId: string;
  appId: string;
  userId: string;
  systemDomainId: string;
  scopes: string[];
  mfa: boolean;
}

/**
 * The whole rotation in one statement (one round trip, one commit): the presented refresh token is claimed
 * by a compare-and-set (unused, unrevoked, unexpired, for these facts, its user still an active member of
 * a live domain) and only then are the new access token's row and the new refresh token's row inserted,
 * from the claimed row. Of concurrent presentations the row lock lets exactly one claim it; the others
 * re-check `used_at IS NULL` after it commits and claim nothing. Nothing is written unless the claim
 * succeeds; the new access token's audit record (with its webhook fan-out, AuditRepository's auditRecordCtes)
 * is written with it. Fixed text, run as a prepared statement on PostgreSQL.
 */
const ROTATE_SQL = `
WITH claimed AS (
  UPDATE oauth_refresh_tokens r SET used_at = $1::timestamptz
   WHERE r.token_hash = $2::text AND r.app_id = $3::uuid AND r.user_id = $4::uuid
     AND r.system_domain_id = $5::uuid AND r.grant_id = $6::uuid AND r.scopes @> $7::text[]
     AND r.used_at IS NULL AND r.revoked_at IS NULL AND r.expires > $1::timestamptz
     AND ${activeMemberSql('r.user_id', 'r.system_domain_id')}
  RETURNING r.id
), access AS (
  INSERT INTO tokens (id, user_id, app_id, system_domain_id, kind, scopes, expires, is_mfa_authenticated,
                      grant_id, token_hash, rights_cap, auth_time)
  SELECT $8::uuid, $4::uuid, $3::uuid, $5::uuid, 'OAUTH', $7::text[], $9::timestamptz, $10::boolean, $6::uuid,
         $11::text, NULL, NULL
    FROM claimed
  RETURNING id, date_created, date_modified
), refresh AS (
  INSERT INTO oauth_refresh_tokens (token_hash, grant_id, app_id, user_id, system_domain_id, scopes, expires,
                                    access_token_id, is_mfa_authenticated)
  SELECT $12::text, $6::uuid, $3::uuid, $4::uuid, $5::uuid, $7::text[], $13::timestamptz, access.id, $10::boolean
    FROM access
  RETURNING id
),
${auditRecordCtes(14, 'SELECT id FROM access')}
SELECT access.date_created, access.date_modified, (SELECT count(*) FROM audit_deliveries)::int AS deliveries
  FROM access, refresh`;

/**
 * Runs the rotation; the new access token's database timestamps and the webhook deliveries its audit record
 * queued, or undefined when the presented token was not claimed (used, revoked, expired, unknown, or its user
 * no longer an active member: then nothing is written, the record neither).
 */
export async function rotateRefreshToken(
  ds: DataSource,
  r: {
    now: Date;
    presentedHash: string;
    facts: RefreshFacts;
    access: TokenRow;
    refreshHash: string;
    refreshExpires: Date;
    audit: AuditRecord;
  },
): Promise<(Stamps & { deliveries: number }) | undefined> {
  const [row] = await preparedQuery<Stamps & { deliveries: number }>(
    ds,
    'portcullis_rotate_refresh',
    ROTATE_SQL,
    [
      r.now.toISOString(),
      r.presentedHash,
      r.facts.appId,
      r.facts.userId,
      r.facts.systemDomainId,
      r.facts.grantId,
      r.access.scopes ?? [],
      r.access.id,
      r.access.expires.toISOString(),
      r.facts.mfa,
      r.access.token_hash,
      r.refreshHash,
      r.refreshExpires.toISOString(),
      ...auditRecordParams([r.audit]),
      [r.access.id],
    ],
  );
  return row;
}
