import { Injectable } from '@nestjs/common';
import { type EntityManager, MoreThan } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { returningRows } from '../../base/database/returning-rows.js';
import { preparedQuery } from '../../base/database/prepared-query.js';
import { Batcher } from '../../base/common/batcher.js';
import { UserEntity } from '../../base/model/user.entity.js';
import { type GuessedFactor, LoginAttemptEntity } from '../../base/model/guessing-defence.entity.js';
import {
  ACCOUNT_WITH_ATTEMPT_SQL,
  lockoutParams,
  reservationSql,
  type AccountWithAttempt,
  type LockoutValues,
} from './reservation-sql.js';

export type { LockoutValues } from './reservation-sql.js';

/** Forgets the failures of the (user, factor) pairs $1, $2 (LockoutRepository.clearAttempts' group commit). */
const CLEAR_ATTEMPTS_SQL = `DELETE FROM login_attempts a USING unnest($1::uuid[], $2::text[]) AS v(user_id, factor)
  WHERE a.user_id = v.user_id AND a.factor = v.factor`;

/** The statements of the per-account guessing defence (login_attempts), so GuessingDefence holds the rules. */
@Injectable()
export class LockoutRepository extends FeatureRepository {
  /**
   * Counts one attempt against (user, factor) unless a lock is in force: the failures counted so far
   * (including this one), or null when locked. The lock is written with the count that reaches the threshold.
   */
  async reserveAttempt(userId: string, factor: GuessedFactor, l: LockoutValues): Promise<number | null> {
    // raw: INSERT … ON CONFLICT DO UPDATE … WHERE … RETURNING: count and lock in one statement, serialised per row
    const rows = returningRows<{ failures: number }>(
      await this.ds.query(
        `${reservationSql('VALUES ($1::uuid, $2, 1, %LOCK1%, $3::timestamptz)')} RETURNING a.failures`,
        [userId, factor, ...lockoutParams(l)],
      ),
    );
    return rows.length > 0 ? Number(rows[0].failures) : null;
  }

  /**
   * The account with this (normalised) email, with its password hash, and `reserveAttempt` for it in the
   * same statement: null for an unknown email (nothing is counted for it); `failures` null when locked.
   */
  async accountWithAttempt(
    email: string,
    factor: GuessedFactor,
    l: LockoutValues,
  ): Promise<AccountWithAttempt | null> {
    // raw: a data-modifying CTE (ACCOUNT_WITH_ATTEMPT_SQL), a prepared statement on every password sign-in
    const rows = await preparedQuery<UserEntity & { attempt_failures: number | null }>(
      this.ds,
      'portcullis_account_attempt',
      ACCOUNT_WITH_ATTEMPT_SQL,
      [email, factor, ...lockoutParams(l)],
    );
    if (rows.length === 0) return null;
    const { attempt_failures, ...columns } = rows[0];
    return {
      user: this.ds.getRepository(UserEntity).create(columns),
      failures: attempt_failures === null ? null : Number(attempt_failures),
    };
  }

  /** The successes of one turn of the event loop forget their failures in one statement (see clearAttempts). */
  private readonly clears = new Batcher<{ userId: string; factor: GuessedFactor }, void>(async (items) => {
    // raw: one DELETE for the (user, factor) pairs of a batch, prepared (every successful sign-in runs it)
    await preparedQuery(this.ds, 'portcullis_clear_attempts', CLEAR_ATTEMPTS_SQL, [
      items.map((i) => i.userId),
      items.map((i) => i.factor),
    ]);
    return items.map(() => undefined);
  });

  /**
   * Forgets the failures of one factor (every factor when none is named). Outside a transaction, one
   * factor's clear is group-committed with the others of the same turn; it settles once committed.
   */
  async clearAttempts(
    userId: string,
    factor?: GuessedFactor,
    em: EntityManager = this.ds.manager,
  ): Promise<void> {
    if (factor && em === this.ds.manager) return this.clears.add({ userId, factor });
    await em
      .getRepository(LoginAttemptEntity)
      .delete(factor ? { user_id: userId, factor } : { user_id: userId });
  }

  async lockedUntil(userId: string, factor: GuessedFactor, now: Date): Promise<Date | null> {
    const row = await this.ds.getRepository(LoginAttemptEntity).findOne({
      select: { user_id: true, factor: true, locked_until: true },
      where: { user_id: userId, factor, locked_until: MoreThan(now) },
    });
    return row?.locked_until ? new Date(row.locked_until) : null;
  }

  /** The account's home domain and email, or null. */
  async account(userId: string): Promise<Pick<UserEntity, 'system_domain_id' | 'email'> | null> {
    return this.ds.getRepository(UserEntity).findOne({
      select: { id: true, system_domain_id: true, email: true },
      where: { id: userId },
    });
  }
}
