import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { In, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { preparedQuery } from '../../base/database/prepared-query.js';
import { Batcher } from '../../base/common/batcher.js';
import { isUuid } from '../../base/common/validation/uuid.js';
import { returningRows } from '../../base/database/returning-rows.js';
import { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import { liveDomainSql } from '../../base/model/domain-status.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { TokenEntity, type TokenKind } from '../../base/model/token.entity.js';

/**
 * Every read and write of token records for TokensService, so the service holds the rules (what a lookup
 * must match, what a revocation tells webhooks) and can be unit-tested with a fake of this class.
 */
@Injectable()
export class TokensRepository extends FeatureRepository {
  /**
   * The lookups of the requests that reach this point in one turn of the event loop, read by one statement
   * (the same per-request read, `WHERE t.id = ANY(…)`): under load that is one database round trip for many
   * requests instead of one each. Each request's row is still read after it arrived, so a revocation that
   * committed before is seen: batching shares the trip, never a result across turns.
   */
  private readonly lookups = new Batcher<string, LookupRow | undefined>((ids) => this.lookupMany(ids));

  /** The per-request lookup of one token with its user, domain, membership, group roles and app. */
  lookup(tokenId: string): Promise<LookupRow | undefined> {
    // a token id is a UUID we made (the signature was checked); anything else cannot have a record
    if (!isUuid(tokenId)) return Promise.resolve(undefined);
    return this.lookups.add(tokenId.toLowerCase());
  }

  /** One statement for several token ids (repeats read once); a row per id, each caller its own copy. */
  private async lookupMany(ids: string[]): Promise<(LookupRow | undefined)[]> {
    const unique = [...new Set(ids)];
    // raw: one flat prepared statement on the hot path (planned once per pooled connection)
    const rows = await preparedQuery<LookupRow>(this.ds, 'portcullis_token_lookup_many', TOKEN_LOOKUP_SQL, [
      unique,
    ]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const handedOut = new Set<string>();
    return ids.map((id) => {
      const row = byId.get(id);
      if (!row) return undefined;
      if (!handedOut.has(id)) {
        handedOut.add(id);
        return row;
      }
      // the same token in two requests of one batch: neither may see the other's changes to an array or a
      // date of the row (every such column, whichever the lookup selects). A spread and one pass over it:
      // Object.entries/fromEntries cost a sixtieth of a validation when every request of a batch
      // presented the same token
      const copy: Record<string, unknown> = { ...row };
      for (const k in copy) {
        const v = copy[k];
        if (Array.isArray(v)) copy[k] = [...(v as unknown[])];
        else if (v instanceof Date) copy[k] = new Date(v.getTime());
      }
      return copy as unknown as LookupRow;
    });
  }

  /** Marks the token used now; fire-and-forget, errors ignored (a hint, not a record). */
  touchLastUsed(tokenId: string): void {
    // raw: the hot path, and the hint must not bump date_modified as a repository update() would
    void this.ds
      .query('UPDATE tokens SET last_used_at = now() WHERE id = $1', [tokenId])
      .catch(() => undefined);
  }

  findInDomain(id: string, systemDomainId: string): Promise<TokenEntity | null> {
    return this.ds.getRepository(TokenEntity).findOneBy({ id, system_domain_id: systemDomainId });
  }

  /** Revokes the live tokens matching `condition` (SQL over `t`, with `params`); answers those revoked. */
  async revokeMatching(em: EntityManager, condition: string, params: unknown[]): Promise<RevokedRow[]> {
    // raw: UPDATE … RETURNING the revoked rows in one statement, for their webhook events
    return returningRows<RevokedRow>(
      await em.query(
        `UPDATE tokens t SET revoked_at = now() WHERE ${condition} AND t.revoked_at IS NULL
         RETURNING t.id, t.app_id, t.user_id, t.system_domain_id, t.kind, t.scopes, t.expires,
                   t.is_mfa_authenticated, t.revoked_at, t.date_created`,
        params,
      ),
    );
  }

  findById(id: string): Promise<TokenEntity> {
    return this.ds.getRepository(TokenEntity).findOneByOrFail({ id });
  }

  /** The live (unrevoked, unexpired) tokens of a domain, for a cursor page; its SCIM tokens have their own list. */
  liveInDomain(systemDomainId: string): SelectQueryBuilder<TokenEntity> {
    return this.domainQuery(TokenEntity, 't', systemDomainId).andWhere(
      "t.revoked_at IS NULL AND t.expires > now() AND t.kind <> 'SCIM'",
    );
  }

  domains(ids: string[]): Promise<SystemDomainEntity[]> {
    return this.ds.getRepository(SystemDomainEntity).findBy({ id: In(ids) });
  }

  /** Every membership of these users, oldest first, with the user's rank and whether the domain is live. */
  memberships(userIds: string[]): Promise<MembershipRow[]> {
    // raw: one join over three tables with the shared live-domain condition (liveDomainSql)
    return this.ds.query(
      `SELECT m.user_id, m.system_domain_id, m.is_admin, u.is_super_admin, NOT ${liveDomainSql('d')} AS deactivated
       FROM user_system_domains m JOIN users u ON u.id = m.user_id JOIN system_domains d ON d.id = m.system_domain_id
       WHERE m.user_id = ANY($1::uuid[]) ORDER BY m.date_created`,
      [userIds],
    );
  }

  /** Which of these users are super administrators. */
  async superAdminsAmong(userIds: string[]): Promise<string[]> {
    const rows = await this.ds.getRepository(UserEntity).find({
      select: { id: true },
      where: { id: In(userIds), is_super_admin: true },
    });
    return rows.map((r) => r.id);
  }

  /** The owner of a token (any domain), or undefined. */
  async owner(tokenId: string): Promise<{ id: string; is_super_admin: boolean } | undefined> {
    // raw: a join from the token to its user, two columns
    const [row] = (await this.ds.query(
      'SELECT u.id, u.is_super_admin FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.id = $1',
      [tokenId],
    )) as { id: string; is_super_admin: boolean }[];
    return row;
  }

  /** A user's rank, membership, group roles and administered domains, for the credential invariant. */
  async rights(
    userId: string,
    domainId: string,
    em: EntityManager = this.ds.manager,
  ): Promise<RightsRow | undefined> {
    // raw: aggregates (array_agg over unnest of group roles) in one round trip
    return ((await em.query(RIGHTS_SQL, [userId, domainId])) as RightsRow[])[0];
  }

  /** Whether the user administers the domain (super administrators administer every domain). */
  async isDomainAdmin(userId: string, systemDomainId: string): Promise<boolean> {
    // raw: a LEFT JOIN answering false for a non-member in one round trip
    const rows: { admin: boolean }[] = await this.ds.query(
      `SELECT (u.is_super_admin OR COALESCE(m.is_admin, false)) AS admin FROM users u
       LEFT JOIN user_system_domains m ON m.user_id = u.id AND m.system_domain_id = $2 WHERE u.id = $1`,
      [userId, systemDomainId],
    );
    return rows[0]?.admin ?? false;
  }

  /** The user's live domains (ids), oldest membership first. */
  async userDomainIds(userId: string): Promise<string[]> {
    // raw: the live-domain condition is shared SQL (liveDomainSql)
    const rows: { system_domain_id: string }[] = await this.ds.query(
      `SELECT m.system_domain_id FROM user_system_domains m JOIN system_domains d ON d.id = m.system_domain_id
       WHERE m.user_id = $1 AND ${liveDomainSql('d')} ORDER BY m.date_created`,
      [userId],
    );
    return rows.map((r) => r.system_domain_id);
  }
}

/** The columns that say whose token a row is and what it is for, as both reads below return them. */
interface TokenRowKeys {
  id: string;
  app_id: string;
  user_id: string;
  system_domain_id: string;
  kind: TokenKind;
  scopes: string[] | null;
}

export interface RevokedRow extends TokenRowKeys {
  expires: Date | string;
  is_mfa_authenticated: boolean;
  revoked_at: Date | string;
  date_created: Date | string;
}

export interface LookupRow extends TokenRowKeys {
  token_hash: string;
  expires: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  is_mfa_authenticated: boolean;
  auth_time: Date | null;
  /** Space-joined: pg's text[] parser cost ~4% of an authenticated request's CPU for ~20 role names. */
  rights_cap: string | null;
  date_created: Date;
  date_modified: Date;
  system_domains: string[] | null;
  vouched_by_tenant: boolean;
  /** Space-joined, as rights_cap. */
  amr: string | null;
  /** Only for a token a tenant vouched for: the user is no super administrator and in no other domain. */
  tenant_owns_account: boolean | null;
  u_email: string;
  u_first_name: string | null;
  u_last_name: string | null;
  u_status: UserEntity['status'];
  u_is_super_admin: boolean;
  u_system_domain_id: string;
  d_name: string;
  d_status: SystemDomainEntity['status'];
  d_type: SystemDomainEntity['type'];
  d_is_plg: boolean;
  d_warning_message: string | null;
  d_freeze_date: Date | null;
  d_deactivate_date: Date | null;
  d_base_url: string;
  group_roles: string[] | null;
  is_member: boolean;
  is_domain_admin: boolean;
  a_oauth_client_type: string | null;
  a_allowed_origins: string[];
}

/**
 * The per-request lookup, as flat columns (no JSON building), for the token ids of one batch (`$1`, a
 * uuid[]: one primary-key index scan per id). Run as a named prepared statement on PostgreSQL, so each
 * pooled connection plans it once. Exported for the benchmark's EXPLAIN (bench/scale-bench.ts).
 */
export const TOKEN_LOOKUP_SQL = `
SELECT t.id, t.app_id, t.user_id, t.system_domain_id, t.kind, t.scopes, t.token_hash, t.expires, t.revoked_at,
       t.last_used_at, t.is_mfa_authenticated, t.auth_time, array_to_string(t.rights_cap, ' ') AS rights_cap,
       t.date_created,
       t.date_modified, t.vouched_by_tenant, array_to_string(t.amr, ' ') AS amr,
       CASE WHEN t.vouched_by_tenant THEN NOT u.is_super_admin AND NOT EXISTS (
              SELECT 1 FROM user_system_domains m3
               WHERE m3.user_id = t.user_id AND m3.system_domain_id <> t.system_domain_id)
       END AS tenant_owns_account,
       (SELECT array_agg(m2.system_domain_id ORDER BY m2.date_created)
          FROM user_system_domains m2 JOIN system_domains d2 ON d2.id = m2.system_domain_id
         WHERE m2.user_id = t.user_id AND ${liveDomainSql('d2')}) AS system_domains,
       u.email AS u_email, u.first_name AS u_first_name, u.last_name AS u_last_name, u.status AS u_status,
       u.is_super_admin AS u_is_super_admin, u.system_domain_id AS u_system_domain_id,
       d.name AS d_name, d.status AS d_status, d.type AS d_type, d.is_plg AS d_is_plg,
       d.warning_message AS d_warning_message, d.base_url AS d_base_url,
       d.freeze_date AS d_freeze_date, d.deactivate_date AS d_deactivate_date,
       (SELECT array_agg(DISTINCT r) FROM group_members gm JOIN groups g ON g.id = gm.group_id
          CROSS JOIN LATERAL unnest(g.roles) AS r
        WHERE gm.user_id = t.user_id AND g.system_domain_id = t.system_domain_id) AS group_roles,
       m.user_id IS NOT NULL AS is_member, COALESCE(m.is_admin, false) AS is_domain_admin,
       a.oauth_client_type AS a_oauth_client_type, a.allowed_origins AS a_allowed_origins
FROM tokens t
JOIN apps a ON a.id = t.app_id
JOIN users u ON u.id = t.user_id
JOIN system_domains d ON d.id = t.system_domain_id
LEFT JOIN user_system_domains m ON m.user_id = t.user_id AND m.system_domain_id = t.system_domain_id
WHERE t.id = ANY($1::uuid[])`;

export interface MembershipRow {
  user_id: string;
  system_domain_id: string;
  is_admin: boolean;
  is_super_admin: boolean;
  deactivated: boolean;
}

export interface RightsRow {
  status: string;
  is_super_admin: boolean;
  member: boolean;
  domain_admin: boolean;
  group_roles: string[] | null;
  admin_of: string[] | null;
}

const RIGHTS_SQL = `
SELECT u.status, u.is_super_admin, m.user_id IS NOT NULL AS member, COALESCE(m.is_admin, false) AS domain_admin,
       (SELECT array_agg(DISTINCT r) FROM group_members gm JOIN groups g ON g.id = gm.group_id
          CROSS JOIN LATERAL unnest(g.roles) AS r
        WHERE gm.user_id = u.id AND g.system_domain_id = $2) AS group_roles,
       (SELECT array_agg(a.system_domain_id) FROM user_system_domains a
        WHERE a.user_id = u.id AND a.is_admin) AS admin_of
FROM users u LEFT JOIN user_system_domains m ON m.user_id = u.id AND m.system_domain_id = $2
WHERE u.id = $1`;
