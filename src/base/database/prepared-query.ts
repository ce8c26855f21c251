import type { DataSource } from 'typeorm';

type PgPool = {
  query: (q: { name: string; text: string; values: unknown[] }) => Promise<{ rows: unknown[] }>;
};

/**
 * A hot-path query as a named prepared statement on PostgreSQL (each pooled connection parses and plans it
 * once), bypassing the query builder. PGlite has no pg pool and takes the plain path.
 */
export async function preparedQuery<T>(
  ds: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  // TypeORM's postgres driver keeps its pg.Pool as `master`
  const pool = (ds.driver as unknown as { master?: PgPool }).master;
  if (pool && typeof pool.query === 'function' && (ds.options as { url?: string }).url) {
    // raw: a named prepared statement on the pg pool (parsed and planned once per connection)
    return (await pool.query({ name, text, values })).rows as T[];
  }
  // raw: the same statement unprepared (PGlite has no pg pool)
  return (await ds.query(text, values)) as T[];
}
