import { Injectable } from '@nestjs/common';
import { AuthErrors } from '../../base/common/auth/auth.errors.js';
import type { EntityManager } from 'typeorm';
import { effectiveRoles, type Role } from '../../base/common/auth/roles.js';
import { applyCap, capFromText } from '../../base/common/auth/rights.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { constantTimeEqualHex, sha256Hex } from '../../base/common/crypto/secrets.js';
import { Clock } from '../../base/common/clock.js';
import type { SystemDomainEntity } from '../../base/model/system-domain.entity.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import type { TokenEntity } from '../../base/model/token.entity.js';
import { TokensRepository, type LookupRow, type RevokedRow } from './tokens.repository.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { effectiveStatus, liveDomainSql, warningMessage } from '../../base/model/domain-status.js';
import { tokenRevoked } from '../../delivery/audit/audit-entries.js';
import { OUTSIDE_REQUEST, type AuditOrigin } from '../../delivery/audit/audit-origin.js';
import { AuditService } from '../../delivery/audit/audit.service.js';

export interface JwtClaims {
  id: string;
  app_id: string;
  sys: string;
  user_id: string;
  exp: number;
  iat: number;
}

/** How a revocation runs: in the caller's transaction (`em`, else one of its own), for which request. */
export interface RevokeOptions {
  em?: EntityManager;
  /** The id of the request that revokes (its webhook events carry it); null for work outside a request. */
  requestId: string | null;
  /** Who revokes, for the audit record; default: the request id alone. */
  origin?: AuditOrigin;
}

/** Issues, looks up and revokes the token records behind every JWT. */
@Injectable()
export class TokensService {
  constructor(
    private readonly repo: TokensRepository,
    private readonly clock: Clock,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
  ) {}

  /**
   * The per-request lookup: one query for token, user, domain, membership and group roles. Refuses a token
   * that is unknown, revoked, expired, altered (hash mismatch), whose claims disagree with its record, whose
   * user is inactive or no longer a member, or whose domain is deactivated. `requestId` is the id of the
   * request the context is built for (`req.id`): a new context per request, never shared.
   */
  async authenticate(claims: JwtClaims, rawToken: string, requestId: string): Promise<AuthContext> {
    const row = await this.lookup(claims.id);
    // built only on failure: an Error captures a stack trace, which costs on this hot path
    const invalid = () => AuthErrors.INVALID_TOKEN();
    if (!row || !constantTimeEqualHex(row.token_hash, sha256Hex(rawToken))) throw invalid();
    if (row.app_id !== claims.app_id || row.user_id !== claims.user_id || row.system_domain_id !== claims.sys)
      throw invalid();
    if (row.revoked_at) throw AuthErrors.TOKEN_REVOKED();
    const expires = new Date(row.expires);
    if (expires.getTime() <= this.clock.now().getTime()) throw AuthErrors.TOKEN_EXPIRED();
    const user = {
      id: row.user_id,
      email: row.u_email,
      first_name: row.u_first_name,
      last_name: row.u_last_name,
      status: row.u_status,
      is_super_admin: row.u_is_super_admin,
      system_domain_id: row.u_system_domain_id,
    } as UserEntity;
    // the status in force now: a freeze or deactivation date that has passed counts before the scheduled job
    // writes it down (domain-status.ts); the warning message is what Token answers show for that status
    const status = effectiveStatus(
      { status: row.d_status, freeze_date: row.d_freeze_date, deactivate_date: row.d_deactivate_date },
      this.clock.now(),
    );
    const domain = {
      id: row.system_domain_id,
      name: row.d_name,
      status,
      type: row.d_type,
      is_plg: row.d_is_plg,
      warning_message: warningMessage(status, row.d_warning_message),
      base_url: row.d_base_url,
    } as SystemDomainEntity;
    const rights = applyCap(
      {
        isSuperAdmin: user.is_super_admin,
        isAdmin: row.is_domain_admin || user.is_super_admin,
        roles: effectiveRoles(
          { is_admin: row.is_domain_admin, is_super_admin: user.is_super_admin },
          row.group_roles ?? [],
        ),
      },
      capFromText(row.rights_cap),
    );
    if (user.status !== 'ACTIVE') throw AuthErrors.USER_INACTIVE();
    // only super-administrator power reaches domains the user is not a member of, and only uncapped
    if (!row.is_member && !rights.isSuperAdmin) throw AuthErrors.NOT_A_MEMBER();
    if (domain.status === 'DEACTIVATED') throw AuthErrors.DOMAIN_DEACTIVATED();
    if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > 60_000) {
      // coarse, fire-and-forget: a write per request would halve throughput for a "last used" hint
      this.repo.touchLastUsed(row.id);
    }
    return {
      tokenId: row.id,
      appId: row.app_id,
      userId: row.user_id,
      systemDomainId: row.system_domain_id,
      kind: row.kind,
      scopes: row.scopes,
      roles: rights.roles as Set<Role>,
      isAdmin: rights.isAdmin,
      isSuperAdmin: rights.isSuperAdmin,
      rightsCap: capFromText(row.rights_cap),
      user,
      domain,
      expires,
      // the token's own record and the user's domains, so describing the caller needs no further query
      record: {
        id: row.id,
        app_id: row.app_id,
        user_id: row.user_id,
        system_domain_id: row.system_domain_id,
        kind: row.kind,
        scopes: row.scopes,
        expires,
        revoked_at: null,
        last_used_at: row.last_used_at ? new Date(row.last_used_at) : null,
        is_mfa_authenticated: row.is_mfa_authenticated,
        auth_time: row.auth_time ? new Date(row.auth_time) : null,
        vouched_by_tenant: row.vouched_by_tenant,
        amr: row.amr ? row.amr.split(' ') : null,
        rights_cap: capFromText(row.rights_cap),
        date_created: new Date(row.date_created),
        date_modified: new Date(row.date_modified),
      } as TokenEntity,
      systemDomains: row.system_domains ?? [],
      tenantOwnsAccount: row.tenant_owns_account === true,
      app: { oauth_client_type: row.a_oauth_client_type, allowed_origins: row.a_allowed_origins ?? [] },
      requestId,
    };
  }

  async findInDomain(id: string, systemDomainId: string): Promise<TokenEntity | null> {
    return this.repo.findInDomain(id, systemDomainId);
  }

  /** The token record (the caller's own, already looked up by the guard: it exists). */
  findById(id: string): Promise<TokenEntity> {
    return this.repo.findById(id);
  }

  /** The token's user: who may revoke it depends on their rank. */
  ownerOf(tokenId: string): Promise<{ id: string; is_super_admin: boolean } | undefined> {
    return this.repo.owner(tokenId);
  }

  /** `work` in one transaction of the token store (a renewal: the new token and the old one's revocation). */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.transaction(work);
  }

  /**
   * Revokes one token; true when it was live. The revocation and its webhook event (`tokens`/`token`/`revoke`)
   * are one transaction: the caller's when `em` is given, else one of its own.
   */
  async revoke(id: string, opts: RevokeOptions): Promise<boolean> {
    return (await this.revokeMatching('t.id = $1', [id], opts)) > 0;
  }

  /** Revokes every live token of an app or a user (or both); each one revoked emits its webhook event. */
  async revokeWhere(where: { app_id?: string; user_id?: string }, opts: RevokeOptions): Promise<number> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    if (where.app_id) conditions.push(`t.app_id = $${params.push(where.app_id)}`);
    if (where.user_id) conditions.push(`t.user_id = $${params.push(where.user_id)}`);
    return this.revokeMatching(conditions.join(' AND ') || 'true', params, opts);
  }

  /** Every live token of one OAuth authorization (a refresh-token replay, revocation of a refresh token). */
  async revokeGrantTokens(grantId: string, opts: RevokeOptions): Promise<number> {
    return this.revokeMatching('t.grant_id = $1', [grantId], opts);
  }

  private async revokeMatching(condition: string, params: unknown[], opts: RevokeOptions): Promise<number> {
    const em = opts.em;
    if (!em)
      return this.repo.transaction((tx) => this.revokeMatching(condition, params, { ...opts, em: tx }));
    const revoked = await this.repo.revokeMatching(em, condition, params);
    for (const t of revoked) {
      await this.audit.record(
        em,
        opts.origin ?? { ...OUTSIDE_REQUEST, requestId: opts.requestId },
        tokenRevoked(t),
      );
      await this.events.record(em, {
        systemDomainId: t.system_domain_id,
        objectId: t.id,
        realm: 'token',
        operation: 'revoke',
        eventType: 'tokens',
        data: revokedView(t),
        requestId: opts.requestId,
      });
    }
    return revoked.length;
  }

  private lookup(tokenId: string): Promise<LookupRow | undefined> {
    return this.repo.lookup(tokenId);
  }

  /** Whether the user administers the domain (super administrators administer every domain). */
  isDomainAdmin(userId: string, systemDomainId: string): Promise<boolean> {
    return this.repo.isDomainAdmin(userId, systemDomainId);
  }

  /** The user's domains (ids), for the Token form's `system_domains`. */
  userDomainIds(userId: string): Promise<string[]> {
    return this.repo.userDomainIds(userId);
  }
}

/**
 * A revoked token in a webhook event: the record's own fields as the token routes show them, never the JWT
 * or its hash (the user's rights and domains are the user's, told by the users events).
 */
function revokedView(t: RevokedRow): Record<string, unknown> {
  return {
    id: t.id,
    app_id: t.app_id,
    user_id: t.user_id,
    system_domain_id: t.system_domain_id,
    kind: t.kind,
    scopes: t.scopes,
    is_mfa_authenticated: t.is_mfa_authenticated,
    expires: wireDate(t.expires),
    revoked_at: wireDate(t.revoked_at),
    date_created: wireDate(t.date_created),
  };
}

/**
 * SQL condition: the user is active and a member of the domain, and the domain is not deactivated — who
 * may still act through a grant (the request guard refuses tokens of anyone else).
 */
export const activeMemberSql = (user: string, domain: string): string => `EXISTS (
  SELECT 1 FROM users u JOIN user_system_domains m ON m.user_id = u.id
    JOIN system_domains d ON d.id = m.system_domain_id
  WHERE u.id = ${user} AND m.system_domain_id = ${domain}
    AND u.status = 'ACTIVE' AND ${liveDomainSql('d')})`;
