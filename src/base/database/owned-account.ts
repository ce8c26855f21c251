import type { EntityManager } from 'typeorm';
import { UserSystemDomainEntity } from '../model/user-system-domain.entity.js';
import { type UserStatus, UserEntity } from '../model/user.entity.js';

/**
 * A new standard account, without a password, whose only membership is `domainId` (not as an
 * administrator): an account that domain owns (src/sign-in/login/ownership.ts), inside the caller's
 * transaction. One statement pair for every flow that makes one (the sign-in authority's just-in-time
 * account, a provisioning client's), each calling it from its own repository.
 */
export async function insertOwnedAccount(
  em: EntityManager,
  a: {
    email: string;
    firstName: string | null;
    lastName: string | null;
    domainId: string;
    status: UserStatus;
  },
): Promise<UserEntity> {
  const created = em.create(UserEntity, {
    email: a.email,
    first_name: a.firstName,
    last_name: a.lastName,
    password_hash: null,
    status: a.status,
    type: 'STANDARD',
    is_super_admin: false,
    system_domain_id: a.domainId,
    last_login: null,
  });
  await em.insert(UserEntity, created);
  await em.insert(UserSystemDomainEntity, {
    user_id: created.id,
    system_domain_id: a.domainId,
    is_admin: false,
  });
  return created;
}
