import type { PGlite } from '@electric-sql/pglite';
import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/app/config.js';
import { dataSourceOptions } from '../../src/base/database/data-source.js';
import { PglitePool } from '../utils/pglite-pool.js';
import { pgliteTemplate } from '../utils/test-database.js';

// The test apps' in-memory databases are reused (test/utils/pglite-pool.ts): a database handed back must come
// to the next app exactly as the migrated template left it, or not at all.
describe('PGlite pool of the test apps', () => {
  const pools: PglitePool[] = [];
  const newPool = (maxIdle?: number) => {
    const pool = new PglitePool(() => pgliteTemplate(), maxIdle);
    pools.push(pool);
    return pool;
  };
  afterAll(() => Promise.all(pools.map((p) => p.drain())));

  const one = async <T>(db: PGlite, sql: string, params?: unknown[]) =>
    (await db.query<T>(sql, params)).rows[0];
  const userTables = async (db: PGlite) =>
    (
      await db.query<{ name: string }>(
        `SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relkind = 'r' AND n.nspname = 'public' ORDER BY 1`,
      )
    ).rows.map((r) => r.name);
  /** Every table's row count and the migrations table's rows and sequence: what the template holds. */
  const state = async (db: PGlite) => {
    const counts: Record<string, number> = {};
    for (const t of await userTables(db)) {
      counts[t] = (await one<{ n: number }>(db, `SELECT count(*)::int AS n FROM ${t}`)).n;
    }
    return {
      counts,
      migrations: (await db.query('SELECT * FROM migrations ORDER BY id')).rows,
      sequence: await one(db, 'SELECT last_value, is_called FROM migrations_id_seq'),
    };
  };

  it('hands back a used database with the template’s rows, sequences and a fresh session', async () => {
    const pool = newPool();
    const db = await pool.open();
    const template = await state(db);
    expect(template.migrations.length).toBeGreaterThan(0);
    expect(Object.values(template.counts).filter((n) => n > 0)).toHaveLength(1); // the migrations table

    // what an app leaves behind: rows in tables tied by foreign keys, a changed and a new migration row, an
    // advanced sequence, session settings, an advisory lock, a prepared statement, an open transaction
    const domain = await one<{ id: string }>(
      db,
      `INSERT INTO system_domains (name, base_url) VALUES ('left behind', 'https://x.example') RETURNING id`,
    );
    await db.query(
      `INSERT INTO users (email, first_name, last_name, system_domain_id) VALUES ('left@x.example', 'L', 'B', $1)`,
      [domain.id],
    );
    await db.exec(`UPDATE migrations SET name = 'tampered' WHERE id = (SELECT min(id) FROM migrations)`);
    await db.exec(`INSERT INTO migrations (timestamp, name) VALUES (1, 'extra')`);
    await db.exec(`SET TimeZone = 'Pacific/Chatham'; SET statement_timeout = '1s'`);
    await db.exec('SELECT pg_advisory_lock(42)');
    await db.exec(`PREPARE left_behind AS SELECT 1`);
    await db.exec('BEGIN');
    await db.exec(`INSERT INTO system_domains (name, base_url) VALUES ('in flight', 'https://y.example')`);
    await pool.close(db);
    expect(pool.idleCount).toBe(1);

    const again = await pool.open();
    expect(again).toBe(db);
    expect(await state(again)).toEqual(template);
    expect(await one(again, `SELECT current_setting('TimeZone') AS tz`)).not.toEqual({
      tz: 'Pacific/Chatham',
    });
    expect(await one(again, `SELECT current_setting('statement_timeout') AS t`)).toEqual({ t: '0' });
    expect(await one(again, 'SELECT pg_try_advisory_xact_lock(42) AS free')).toEqual({ free: true });
    expect(await one(again, `SELECT count(*)::int AS n FROM pg_prepared_statements`)).toEqual({ n: 0 });
    // not inside the transaction left open: this one commits on its own
    await again.exec(`INSERT INTO system_domains (name, base_url) VALUES ('new', 'https://z.example')`);
    expect(await one(again, 'SELECT txid_current_if_assigned() AS tx')).toEqual({ tx: null });
    // the migration sequence goes on from the template's value, not from where the last app left it
    const next = await one<{ id: number }>(
      again,
      `INSERT INTO migrations (timestamp, name) VALUES (2, 'n') RETURNING id`,
    );
    expect(next.id).toBe(Number((template.sequence as { last_value: string }).last_value) + 1);
    await pool.close(again);
  });

  it.each([
    [
      'a trigger',
      `CREATE FUNCTION noop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
       CREATE TRIGGER noop BEFORE INSERT ON users FOR EACH ROW EXECUTE FUNCTION noop()`,
    ],
    ['a column', 'ALTER TABLE users ADD COLUMN extra text'],
    ['a constraint', `ALTER TABLE users ADD CONSTRAINT extra CHECK (email <> '')`],
    ['a table', 'CREATE TABLE extra (id int)'],
    [
      'a database setting',
      `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET work_mem = ''8MB''', current_database()); END $$`,
    ],
  ])('closes a database whose catalog changed (%s) instead of handing it out again', async (_what, ddl) => {
    const pool = newPool();
    const db = await pool.open();
    await db.exec(ddl);
    await pool.close(db);
    expect(pool.idleCount).toBe(0);
    expect(db.closed).toBe(true);
    const fresh = await pool.open();
    expect(fresh).not.toBe(db);
    await pool.close(fresh);
    expect(pool.idleCount).toBe(1);
  });

  it('keeps at most maxIdle databases; the others are closed', async () => {
    const pool = newPool(1);
    const [a, b] = await Promise.all([pool.open(), pool.open()]);
    expect(a).not.toBe(b);
    await pool.close(a);
    await pool.close(b);
    expect(pool.idleCount).toBe(1);
    expect([a.closed, b.closed].sort()).toEqual([false, true]);
  });

  it('an app’s data source that has ended refuses queries instead of taking a database another app holds', async () => {
    const pool = newPool();
    const config = loadConfig({
      DATA_DIR: 'memory://',
      KEY_ENCRYPTION_SECRET: 'test-key-encryption-secret-0123456789',
    });
    config.database.pglite = pool;
    const ds = await new DataSource(dataSourceOptions(config)).initialize();
    const pgPool = (ds.driver as unknown as { master: { query(sql: string): Promise<unknown> } }).master;
    await ds.query('SELECT 1');
    await ds.destroy();
    expect(pool.idleCount).toBe(1);
    await expect(pgPool.query('SELECT 1')).rejects.toThrow('the PGlite pool has ended');
    expect(pool.idleCount).toBe(1);
  });
});
