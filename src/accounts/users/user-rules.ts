import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { UpdateUserDto } from './dto/user.dto.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { UsersErrors } from './users.errors.js';
import type { ApiError } from '../../base/common/errors/api-error.js';

/** The rank and membership rules of user writes (UsersService), as functions of the caller and the target. */

/** A user with their administrator flag in the domain they are seen from. */
export type DomainUser = UserEntity & { is_admin: boolean };

/** Only administrators touch administrators, only super administrators touch super administrators. */
export function requireRank(auth: AuthContext, target: DomainUser): void {
  if (target.is_super_admin && !auth.isSuperAdmin) throw UsersErrors.SUPER_ADMIN_RANK();
  if (target.is_admin && !auth.isAdmin) throw UsersErrors.ADMIN_RANK();
}

/**
 * An administrator's act on what belongs to an account as a whole, shared by every domain it is in (its
 * guessing-defence locks, its passkeys): only a super administrator, or an administrator of the account's
 * only domain, and never on a super administrator's. `domains`: how many domains the account belongs to.
 * Each refusal is the caller's own 403 (`refuse`), so its answer names what was refused.
 */
export function requireAccountAdministrator(
  auth: AuthContext,
  target: Pick<UserEntity, 'is_super_admin'>,
  domains: number,
  refuse: { superAdminRank: () => ApiError; adminOnly: () => ApiError; sharedAccount: () => ApiError },
): void {
  if (auth.isSuperAdmin) return;
  if (target.is_super_admin) throw refuse.superAdminRank();
  if (!auth.isAdmin) throw refuse.adminOnly();
  if (domains > 1) throw refuse.sharedAccount();
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
