import { Injectable } from '@nestjs/common';
import { TokensErrors } from './tokens.errors.js';
import type { EntityManager } from 'typeorm';
import { TokensRepository } from './tokens.repository.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { capOf, excess, type Rights, type RightsCap } from '../../base/common/auth/rights.js';
import { effectiveRoles } from '../../base/common/auth/roles.js';

/** A user's rights in one domain, with what else decides whether they may be acted as. */
export interface UserRights extends Rights {
  active: boolean;
  member: boolean;
  /** Every domain the user administers. */
  adminOf: string[];
}

/**
 * The credential invariant: a caller can only obtain, directly or through an app, a credential whose rights
 * are within its own. Used wherever an app is given a user to act as and wherever a token is minted for an
 * app (see docs/security.md).
 */
@Injectable()
export class ActingRightsService {
  constructor(private readonly repo: TokensRepository) {}

  async rightsOf(userId: string, domainId: string, em?: EntityManager): Promise<UserRights | null> {
    const row = await this.repo.rights(userId, domainId, em);
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
    const beyond = await this.beyondCaller(auth, targetUserId, target);
    if (beyond.length) {
      throw TokensErrors.BEYOND_CALLER_RIGHTS(what, beyond);
    }
    return capOf(target);
  }

  /**
   * Whether `target` outranks the caller, in words (empty: it does not): the rights it holds in the caller's
   * domain that the caller's credential does not, and the domains it administers that the caller does not.
   * The one judgement behind requireWithin (PATs, acting users, client secrets) and app changes.
   */
  async beyondCaller(auth: AuthContext, targetUserId: string, target: UserRights): Promise<string[]> {
    // the caller's credential, already cut to its ceiling by the lookup, is itself a Rights
    const beyond = excess(target, auth);
    if (!auth.isSuperAdmin && targetUserId !== auth.userId) {
      const own = await this.rightsOf(auth.userId, auth.systemDomainId);
      const foreign = target.adminOf.filter((d) => d !== auth.systemDomainId && !own?.adminOf.includes(d));
      if (foreign.length) beyond.push('administrator of another domain');
    }
    return beyond;
  }
}
