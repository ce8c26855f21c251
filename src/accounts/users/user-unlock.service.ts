import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { GuessingDefence } from '../lockout/guessing-defence.js';
import { UsersRepository } from './users.repository.js';
import { UsersErrors } from './users.errors.js';
import { requireAccountAdministrator } from './user-rules.js';

/**
 * An administrator lifting a user's guessing-defence locks (GuessingDefence.unlock). The locks are the
 * account's, shared by every domain the user belongs to, so an unlock is an account change: only an
 * administrator of the user's only domain may make it, or a super administrator. Otherwise a tenant's
 * administrator (or any holder of can_write_users) could reset the guessing budget of a shared account
 * for ever. The person's own password reset lifts the password lock too (PasswordsService).
 */
@Injectable()
export class UserUnlockService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly defence: GuessingDefence,
  ) {}

  /** Tokens are untouched: a lock is about guessing, not revocation. */
  async unlock(auth: AuthContext, id: string): Promise<void> {
    const memberships = await this.repo.domainIds(undefined, id);
    const here = memberships.includes(auth.systemDomainId);
    const user = here ? await this.repo.findAccount(id) : null;
    if (!here || !user) throw UsersErrors.NOT_FOUND();
    requireAccountAdministrator(auth, user, memberships.length, {
      superAdminRank: UsersErrors.SUPER_ADMIN_RANK,
      adminOnly: UsersErrors.UNLOCK_ADMIN_ONLY,
      sharedAccount: UsersErrors.UNLOCK_SHARED_ACCOUNT,
    });
    await this.defence.unlock(id);
  }
}
