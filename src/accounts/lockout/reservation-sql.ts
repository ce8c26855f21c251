// The guessing defence's reservation as SQL text (GuessingDefence, docs/security.md): LockoutRepository runs it
// alone or with the account read; the password sign-in's first statement (LoginRepository.signInAccount) runs the
// account read and the reservation with the account's live memberships, so a password sign-in reads once.
import type { UserEntity } from '../../base/model/user.entity.js';

/** An account read with an attempt reserved for it: `failures` counted so far, null while a lock is in force. */
export interface AccountWithAttempt {
  user: UserEntity;
  failures: number | null;
}

/** The lockout schedule `reserveAttempt` applies, in seconds. */
export interface LockoutValues {
  now: Date;
  threshold: number;
  baseSeconds: number;
  maxSeconds: number;
  resetSeconds: number;
}

/** reserveAttempt's parameters after the first two: $3 now, $4 threshold, $5 base, $6 max, $7 reset window (s). */
export const lockoutParams = (l: LockoutValues) => [l.now, l.threshold, l.baseSeconds, l.maxSeconds, l.resetSeconds];

/**
 * The attempt's upsert on login_attempts, from `source` (a VALUES or SELECT of user_id, factor, failures,
 * locked_until, last_failure_at, where %LOCK1% is the lock a first failure sets): a failure counted, the lock
 * set when the count reaches the threshold, nothing changed while a lock is in force. $2 is the factor and
 * $3–$7 as lockoutParams.
 */
export function reservationSql(source: string): string {
  const next = `(CASE WHEN a.last_failure_at IS NULL OR a.last_failure_at <= $3::timestamptz - $7::int * interval '1 second'
                 THEN 1 ELSE a.failures + 1 END)`;
  const lockFor = (n: string) =>
    `(CASE WHEN ${n} >= $4::int
           THEN $3::timestamptz + LEAST($5::int * power(2, LEAST(${n} - $4::int, 30)), $6::int) * interval '1 second'
      END)`;
  return `INSERT INTO login_attempts AS a (user_id, factor, failures, locked_until, last_failure_at)
       ${source.replace('%LOCK1%', lockFor('1'))}
       ON CONFLICT (user_id, factor) DO UPDATE
         SET failures = ${next}, locked_until = ${lockFor(next)}, last_failure_at = $3::timestamptz
         WHERE a.locked_until IS NULL OR a.locked_until <= $3::timestamptz`;
}

/**
 * The account with this email and the attempt's reservation for it (reservationSql), in one statement: the
 * user's columns and `attempt_failures` (null when a lock is in force); no row for an unknown email. `more`: a
 * caller's join on the account (`u`), its columns and the rows' order (LoginRepository.signInAccount: one row
 * per live membership).
 */
export function accountWithAttemptSql(more?: { select: string; join: string; orderBy: string }): string {
  return `WITH u AS (SELECT * FROM users WHERE email = $1),
       r AS (${reservationSql('SELECT u.id, $2::text, 1, %LOCK1%, $3::timestamptz FROM u')} RETURNING a.failures)
  SELECT u.*, (SELECT failures FROM r) AS attempt_failures${more ? `, ${more.select}` : ''}
    FROM u${more ? ` ${more.join} ORDER BY ${more.orderBy}` : ''}`;
}

export const ACCOUNT_WITH_ATTEMPT_SQL = accountWithAttemptSql();
