import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { UserSystemDomainEntity } from '../../base/model/user-system-domain.entity.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { confirmedMethods, type MfaMethod } from './mfa-policy.js';
import { readUserFactors } from '../../base/database/user-factors.js';
import { insertOwnedAccount } from '../../base/database/owned-account.js';

/** What the SignInAuthority needs to know of an account, as seen from one domain. */
export interface AccountFacts {
  user: UserEntity;
  /** A membership in the domain. */
  member: boolean;
  /** Memberships in any other domain (deactivated ones included). */
  otherDomains: number;
}

/** The SignInAuthority's reads and the just-in-time account it writes. */
@Injectable()
export class SignInAuthorityRepository extends FeatureRepository {
  /** The account by id or (normalized) email, with its memberships as seen from `domainId`. */
  async accountFacts(
    em: EntityManager,
    by: { id: string } | { email: string },
    domainId: string,
  ): Promise<AccountFacts | undefined> {
    const user = await em.getRepository(UserEntity).findOneBy(by);
    if (!user) return undefined;
    const memberships = await em
      .getRepository(UserSystemDomainEntity)
      .find({ select: { system_domain_id: true }, where: { user_id: user.id } });
    return {
      user,
      member: memberships.some((m) => m.system_domain_id === domainId),
      otherDomains: memberships.filter((m) => m.system_domain_id !== domainId).length,
    };
  }

  /** The factors the user has confirmed, read inside `em` (mfa-policy.ts, confirmedMethods). */
  async configuredMethods(em: EntityManager, userId: string): Promise<MfaMethod[]> {
    return confirmedMethods(await readUserFactors(em, userId));
  }

  /** A new ACTIVE standard account whose only membership is `domainId` (inside the caller's transaction). */
  insertOwnedAccount(
    em: EntityManager,
    a: { email: string; firstName: string | null; lastName: string | null; domainId: string },
  ): Promise<UserEntity> {
    return insertOwnedAccount(em, { ...a, status: 'ACTIVE' });
  }
}
