import type { EntityManager } from 'typeorm';
import { UserEntity } from '../model/user.entity.js';

/**
 * The person proved they receive mail at `email` (a mailed link or code was used): `users.email_verified_at`
 * becomes the database's now(), in the caller's transaction; nothing changes when the account's email is no
 * longer that address. One statement for every flow that proves it (an invitation, a registration, a password
 * reset, a mailed sign-in link, a mailed second factor), each calling it from its own repository.
 */
export async function markEmailVerified(em: EntityManager, userId: string, email: string): Promise<void> {
  await em
    .createQueryBuilder()
    .update(UserEntity)
    .set({ email_verified_at: () => 'now()' })
    .where('id = :userId AND email = :email', { userId, email })
    .execute();
}
