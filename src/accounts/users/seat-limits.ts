import type { EntityManager } from 'typeorm';
import { MembershipsRepository } from './memberships.repository.js';
import type { UserType } from '../../base/model/user.entity.js';
import { UsersErrors } from './users.errors.js';

/** Which BillingLimits field caps each user type (both browse types share `browse_users`). */
export const SEAT_LIMIT: Record<UserType, 'standard_users' | 'power_users' | 'browse_users'> = {
  STANDARD: 'standard_users',
  POWER: 'power_users',
  BROWSE_ONLY: 'browse_users',
  BROWSE_API_ONLY: 'browse_users',
};

const TYPES_OF = (limit: string): UserType[] =>
  (Object.keys(SEAT_LIMIT) as UserType[]).filter((t) => SEAT_LIMIT[t] === limit);

/** How a seat is counted (see assertSeat). */
export interface SeatOptions {
  now: Date;
  countPending: boolean;
  excludeUserId?: string;
  excludeInvitationId?: string;
}

/**
 * The domain's BillingLimits cap its users by type: one more `type` seat must fit under the limit, or a 400
 * naming it. Seats are held by the domain's ACTIVE members of that type (not a partner domain's
 * administrators let in by a partner access grant) and, with `countPending`, by its
 * pending (unexpired) invitations of that type — an invitation reserves its seat, so accepting it never fails
 * on the limit. `exclude`: a user (being changed) or an invitation (being accepted) not to count.
 *
 * Call inside the change's transaction: the domain row is locked (FOR NO KEY UPDATE: seat checks queue behind
 * each other, while the foreign-key checks of inserts that name the domain, which take KEY SHARE, do not), so
 * two requests cannot both take the last seat. Lock order: the domain row before any row of the domain (an
 * invitation, a membership), as `lockDomain` does at the start of a transaction; otherwise two transactions
 * can wait on each other. A domain without limits, or without this one (null), is not capped.
 */
export async function assertSeat(
  em: EntityManager,
  systemDomainId: string,
  type: UserType,
  o: SeatOptions,
): Promise<void> {
  // functions of the caller's transaction: the repository over that transaction's data source
  const repo = new MembershipsRepository(em.connection);
  const limits = await repo.lockedLimits(em, systemDomainId);
  const field = SEAT_LIMIT[type];
  const limit = limits?.[field];
  if (limit === null || limit === undefined) return;
  const n = await repo.seatsHeld(em, systemDomainId, TYPES_OF(field), o);
  if (n + 1 > limit) throw UsersErrors.SEAT_LIMIT(field, limit);
}

/**
 * Takes the domain row's seat lock first thing in a transaction that will also touch the domain's
 * invitations or memberships, so every such transaction locks in the same order (see assertSeat).
 */
export async function lockDomain(em: EntityManager, systemDomainId: string): Promise<void> {
  await new MembershipsRepository(em.connection).lockDomain(em, systemDomainId);
}
