/**
 * The claim of a worker queue (mail outbox, webhook deliveries): up to $3 rows that are due at $1 and not
 * held by another worker are taken in one statement — `FOR UPDATE SKIP LOCKED` makes concurrent claims by
 * other instances skip them — and leased until $2 (`locked_until`), which keeps them taken after the
 * statement commits while the slow part (SMTP, HTTP) runs outside any transaction. A crashed instance's
 * claims come back when the lease runs out. Each claim counts one more attempt.
 *
 * The queue table needs `attempts`, `next_attempt_at`, `locked_until` and `status` ('PENDING' while due).
 */
export interface LeaseClaim {
  /** The queue table, and its alias in the outer statement (`RETURNING` names columns through it). */
  table: string;
  alias: string;
  /** More columns to set on claim, e.g. `last_attempt_at = $1`. */
  set?: string;
  /** A join for the candidate query (the table is `q` there), e.g. a parent row whose status must allow it. */
  candidateJoin?: string;
  /** More conditions on the candidates (over `q` and the join). */
  candidateWhere?: string;
  /** More tables for the outer statement (joined in `where`), whose columns `returning` may name. */
  from?: string;
  where?: string;
  returning: string;
}

/** The SQL of one claim; parameters: $1 now, $2 the lease's end, $3 the most rows to take. */
export function leaseClaimSql(c: LeaseClaim): string {
  const a = c.alias;
  return `
  UPDATE ${c.table} ${a}
     SET locked_until = $2, attempts = ${a}.attempts + 1${c.set ? `, ${c.set}` : ''}
    FROM (SELECT q.id FROM ${c.table} q ${c.candidateJoin ?? ''}
           WHERE q.status = 'PENDING' AND q.next_attempt_at <= $1
             AND (q.locked_until IS NULL OR q.locked_until <= $1)
             ${c.candidateWhere ? `AND ${c.candidateWhere}` : ''}
           ORDER BY q.next_attempt_at
           LIMIT $3
             FOR UPDATE OF q SKIP LOCKED) c${c.from ? `, ${c.from}` : ''}
   WHERE ${a}.id = c.id${c.where ? ` AND ${c.where}` : ''}
  RETURNING ${c.returning}`;
}
