import { Injectable } from '@nestjs/common';
import { TokensErrors } from './tokens.errors.js';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthContext } from '../common/auth/auth-context.js';
import { capOf, excess, type Rights, type RightsCap } from '../common/auth/rights.js';
import { effectiveRoles } from '../common/auth/roles.js';

/** A user's rights in one domain, with what else decides whether they may be acted as. */
export interface UserRights extends Rights {
  active: boolean;
  member: boolean;
  /** Every domain the user administers. */
  adminOf: string[];
}

interface RightsRow {
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

/**
 * The credential invariant: a caller can only obtain, directly or through an app, a credential whose rights
 * are within its own. Used wherever an app is given a user to act as and wherever a token is minted for an
 * app (see README, Security).
 */
@Injectable()
export class ActingRightsService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async rightsOf(
    userId: string,
    domainId: string,
    em: EntityManager = this.ds.manager,
  ): Promise<UserRights | null> {
    const [row] = (await em.query(RIGHTS_SQL, [userId, domainId])) as RightsRow[];
    if (!row) return null;
    return {
      active: row.status === 'ACTIVE',
      member: row.member,
      isSuperAdmin: row.is_super_admin,
      isAdmin: row.domain_admin || row.is_super_admin,
      roles: effectiveRoles(
        { is_admin: row.domain_admin, is_super_admin: row.is_super_admin },
        row.group_roles ?? [],
      ),
      adminOf: row.admin_of ?? [],
    };
  }

  /**
   * Refuses (403) when `targetUserId` holds rights in the caller's domain that the caller's credential does
   * not, or administers a domain the caller does not administer (a token acting as them could reach it
   * through their account). Returns the target's rights as a ceiling, which by then is within the caller's.
   */
  async requireWithinCaller(auth: AuthContext, targetUserId: string, what: string): Promise<RightsCap> {
    const target = await this.rightsOf(targetUserId, auth.systemDomainId);
    if (!target || !target.member)
      throw TokensErrors.INVALID({ default_user_id: 'no such user in this domain' });
    return this.requireWithin(auth, targetUserId, target, what);
  }

  /** As requireWithinCaller, for a target whose rights the caller has already read. */
  async requireWithin(
    auth: AuthContext,
    targetUserId: string,
    target: UserRights,
    what: string,
  ): Promise<RightsCap> {
    // the caller's credential, already cut to its ceiling by the lookup, is itself a Rights
    const beyond = excess(target, auth);
    if (!auth.isSuperAdmin && targetUserId !== auth.userId) {
      const own = await this.rightsOf(auth.userId, auth.systemDomainId);
      const foreign = target.adminOf.filter((d) => d !== auth.systemDomainId && !own?.adminOf.includes(d));
      if (foreign.length) beyond.push('administrator of another domain');
    }
    if (beyond.length) {
      throw TokensErrors.BEYOND_CALLER_RIGHTS(what, beyond);
    }
    return capOf(target);
  }
}
