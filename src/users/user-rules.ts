import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../common/auth/auth-context.js';
import type { UpdateUserDto } from './dto/user.dto.js';
import { UserSystemDomainEntity } from './user-system-domain.entity.js';
import type { UserEntity } from './user.entity.js';
import { UsersErrors } from './users.errors.js';

/** The rank and membership rules of user writes (UsersService), as functions of the caller and the target. */

/** A user with their administrator flag in the domain they are seen from. */
export type DomainUser = UserEntity & { is_admin: boolean };

/** Only administrators touch administrators, only super administrators touch super administrators. */
export function requireRank(auth: AuthContext, target: DomainUser): void {
  if (target.is_super_admin && !auth.isSuperAdmin) throw UsersErrors.SUPER_ADMIN_RANK();
  if (target.is_admin && !auth.isAdmin) throw UsersErrors.ADMIN_RANK();
}

/** Nobody deactivates or demotes themselves: the domain could be left without anyone to undo it. */
export function refuseSelfLockout(self: DomainUser, patch: UpdateUserDto): void {
  const errors: Record<string, string> = {};
  if (patch.status === 'INACTIVE') errors.status = 'you cannot deactivate yourself';
  if (patch.is_admin === false && self.is_admin)
    errors.is_admin = 'you cannot remove your own administrator rights';
  if (patch.is_super_admin === false && self.is_super_admin)
    errors.is_super_admin = 'you cannot remove your own super administrator rights';
  if (Object.keys(errors).length) throw UsersErrors.INVALID(errors);
}

/** Which of these users administer the caller's domain. */
export async function adminsAmong(em: EntityManager, auth: AuthContext, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows: { user_id: string }[] = await em.query(
    'SELECT user_id FROM user_system_domains WHERE system_domain_id = $1 AND user_id = ANY($2::uuid[]) AND is_admin',
    [auth.systemDomainId, ids],
  );
  return new Set(rows.map((r) => r.user_id));
}

/** How many domains besides the caller's the user belongs to. */
export function otherDomains(em: EntityManager, auth: AuthContext, userId: string): Promise<number> {
  return em
    .getRepository(UserSystemDomainEntity)
    .createQueryBuilder('m')
    .where('m.user_id = :userId AND m.system_domain_id <> :domainId', {
      userId,
      domainId: auth.systemDomainId,
    })
    .getCount();
}
