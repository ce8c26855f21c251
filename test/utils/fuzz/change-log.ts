import type { DataSource } from 'typeorm';

/** Columns that reads legitimately touch: a "last used" hint written on authenticated requests. */
const VOLATILE: Record<string, string[]> = { tokens: ['last_used_at'] };

/**
 * Tables a refused request is meant to change: `login_attempts` counts wrong passwords and codes (the
 * guessing defence), and a wrong guess is a 4xx whose whole point is to be counted; `audit_events` records
 * refused sign-ins (the audit trail).
 */
const COUNTS_REFUSALS = ['migrations', 'login_attempts', 'audit_events'];

const LOG = 'fuzz_change_log';

/**
 * Makes every committed change to the database visible to the fuzz suite, so "a refused request changed
 * nothing" can be checked after each request: a trigger on every table (but those above) appends the table's
 * name to an append-only log, in the writing transaction (a rolled-back write leaves no entry). An UPDATE
 * that changes only volatile columns, or nothing, is not a change.
 *
 * This replaced digesting every row of every table twice per request: that cost grew with the database
 * (every case as administrator adds a token row) and was most of the suite's time. The log sees strictly
 * more: a row written and deleted again within one request is a change here, and was invisible to a digest.
 */
export async function installChangeLog(ds: DataSource): Promise<void> {
  const tables: { table_name: string }[] = await ds.query(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND NOT (table_name = ANY($1))
     ORDER BY table_name`,
    [[...COUNTS_REFUSALS, LOG]],
  );
  await ds.query(`CREATE TABLE ${LOG} (id bigserial PRIMARY KEY, table_name text NOT NULL)`);
  await ds.query(`
    CREATE FUNCTION ${LOG}_row() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      -- the volatile columns; TG_ARGV is NULL, not empty, for a trigger without arguments
      volatile text[] := CASE WHEN TG_NARGS > 0 THEN TG_ARGV ELSE '{}'::text[] END;
    BEGIN
      IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - volatile) IS NOT DISTINCT FROM (to_jsonb(OLD) - volatile) THEN
        RETURN NULL;
      END IF;
      INSERT INTO ${LOG} (table_name) VALUES (TG_TABLE_NAME);
      RETURN NULL;
    END $$`);
  await ds.query(`
    CREATE FUNCTION ${LOG}_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ${LOG} (table_name) VALUES (TG_TABLE_NAME);
      RETURN NULL;
    END $$`);
  for (const { table_name: t } of tables) {
    const volatile = (VOLATILE[t] ?? []).map((c) => `'${c}'`).join(', ');
    await ds.query(
      `CREATE TRIGGER ${LOG}_row AFTER INSERT OR UPDATE OR DELETE ON "${t}"
       FOR EACH ROW EXECUTE FUNCTION ${LOG}_row(${volatile})`,
    );
    await ds.query(
      `CREATE TRIGGER ${LOG}_truncate AFTER TRUNCATE ON "${t}" FOR EACH STATEMENT EXECUTE FUNCTION ${LOG}_truncate()`,
    );
  }
}

/** Where the log stands now: what `changedSince` compares with. */
export async function changeMark(ds: DataSource): Promise<number> {
  const [row]: { id: string | null }[] = await ds.query(`SELECT max(id) AS id FROM ${LOG}`);
  return Number(row.id ?? 0);
}

/** The tables changed since `mark`, by name. */
export async function changedSince(ds: DataSource, mark: number): Promise<string[]> {
  const rows: { table_name: string }[] = await ds.query(
    `SELECT DISTINCT table_name FROM ${LOG} WHERE id > $1 ORDER BY table_name`,
    [mark],
  );
  return rows.map((r) => r.table_name);
}
