import type { DataSource } from 'typeorm';

/** Columns that reads legitimately touch: a "last used" hint written on authenticated requests. */
const VOLATILE = new Set(['tokens.last_used_at']);

/**
 * Tables a refused request is meant to change: `login_attempts` counts wrong passwords and codes (the
 * guessing defence), and a wrong guess is a 4xx whose whole point is to be counted; `audit_events` records
 * refused sign-ins (the audit trail).
 */
const COUNTS_REFUSALS = ['migrations', 'login_attempts', 'audit_events'];

/**
 * One query that digests every row of every table (volatile columns left out), so "nothing changed" can be
 * checked after each refused request.
 */
export async function fingerprintQuery(ds: DataSource): Promise<string> {
  const cols: { table_name: string; column_name: string }[] = await ds.query(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = 'public' AND NOT (table_name = ANY($1)) ORDER BY table_name, ordinal_position`,
    [COUNTS_REFUSALS],
  );
  const tables = new Map<string, string[]>();
  for (const c of cols) {
    if (VOLATILE.has(`${c.table_name}.${c.column_name}`)) continue;
    tables.set(c.table_name, [...(tables.get(c.table_name) ?? []), `"${c.column_name}"`]);
  }
  return [...tables]
    .map(
      ([t, c]) =>
        `SELECT '${t}' AS t, count(*) AS n, md5(coalesce(string_agg(x, '|' ORDER BY x), '')) AS h
         FROM (SELECT ROW(${c.join(', ')})::text AS x FROM "${t}") s`,
    )
    .join(' UNION ALL ');
}

export async function fingerprint(ds: DataSource, query: string): Promise<Record<string, string>> {
  const rows: { t: string; n: string; h: string }[] = await ds.query(query);
  return Object.fromEntries(rows.map((r) => [r.t, `${r.n}:${r.h}`]));
}

/** The tables whose digest differs. */
export function changedTables(a: Record<string, string>, b: Record<string, string>): string[] {
  return Object.keys({ ...a, ...b }).filter((k) => a[k] !== b[k]);
}
