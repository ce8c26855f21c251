import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthContext } from '../common/auth/auth-context.js';
import { GuessingDefence } from '../login/guessing-defence.js';
import { UserSystemDomainEntity } from './user-system-domain.entity.js';
import { UserEntity } from './user.entity.js';
import { UsersErrors } from './users.errors.js';

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
    @InjectDataSource() private readonly ds: DataSource,
    private readonly defence: GuessingDefence,
  ) {}

  /** Tokens are untouched: a lock is about guessing, not revocation. */
  async unlock(auth: AuthContext, id: string): Promise<void> {
    const memberships = await this.ds.getRepository(UserSystemDomainEntity).findBy({ user_id: id });
    const here = memberships.find((m) => m.system_domain_id === auth.systemDomainId);
    const user = here ? await this.ds.getRepository(UserEntity).findOneBy({ id }) : null;
    if (!here || !user) throw UsersErrors.NOT_FOUND();
    if (!auth.isSuperAdmin) {
      if (user.is_super_admin) throw UsersErrors.SUPER_ADMIN_RANK();
      if (!auth.isAdmin) throw UsersErrors.UNLOCK_ADMIN_ONLY();
      if (memberships.length > 1) throw UsersErrors.UNLOCK_SHARED_ACCOUNT();
    }
    await this.defence.unlock(id);
  }
}
