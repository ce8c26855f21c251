import type { PGlite } from '@electric-sql/pglite';
import { openPglite, type PgliteSource } from '../../src/base/database/pglite-serial-driver.js';

/**
 * The in-memory databases of the test apps on PGlite, reused: a database an app hands back when it closes
 * is reset to the migrated template and handed to the next app of the same test file.
 *
 * Why: opening one means unpacking the template's 43 MB data directory into PGlite's in-memory file
 * system and starting PostgreSQL in WebAssembly, half of a test app's start and the largest piece of the
 * suites' time once they ran in batches. Resetting one costs a few statements.
 *
 * A database is reused only when nothing but rows changed, and comes back exactly as the template left it:
 * - its catalog (tables, columns, defaults, constraints, triggers, functions, types, roles, databases and
 *   their settings…) must match the template's, by a digest taken on a fresh database; a suite that adds a
 *   trigger (the fuzz suite's change log) or alters a table leaves its database to be closed instead;
 * - the session is reset (`ROLLBACK`, `DISCARD ALL`: settings, prepared statements, temporary tables,
 *   advisory locks, listeners);
 * - every table with a row is emptied, the template's own rows (the migrations table) are written back as
 *   they were where they changed, and every sequence is set back to its template value.
 * test/e2e/pglite-pool.e2e-spec.ts checks each of these against a database that a previous app changed.
 */
/**
 * What a pool of reused databases needs to know of one kind of database: how to make a new one from the
 * template, how to get a SQL session on one to describe or reset it, and how to get rid of one.
 */
export interface DatabaseKind<D> {
  create(): Promise<D>;
  session<R>(db: D, work: (session: SqlSession) => Promise<R>): Promise<R>;
  destroy(db: D): Promise<void>;
}

/** Databases of one kind, handed out and taken back; reset to the template between users (see above). */
export class ReusePool<D> {
  private readonly idle: D[] = [];
  private template: Promise<TemplateState> | null = null;

  constructor(
    private readonly kind: DatabaseKind<D>,
    /** Databases kept for reuse; one more handed back is destroyed. */
    private readonly maxIdle = 2,
  ) {}

  async open(): Promise<D> {
    const reused = this.idle.pop();
    if (reused !== undefined) return reused;
    const db = await this.kind.create();
    // described on the first database made, before anyone has used it
    this.template ??= this.kind.session(db, (s) => describeTemplate(s));
    try {
      await this.template;
    } catch (err) {
      this.template = null;
      await this.kind.destroy(db);
      throw err;
    }
    return db;
  }

  async close(db: D): Promise<void> {
    const template = this.template && (await this.template.catch(() => null));
    if (
      template &&
      this.idle.length < this.maxIdle &&
      (await this.kind.session(db, (s) => resetToTemplate(s, template)).catch(() => false))
    ) {
      this.idle.push(db);
      return;
    }
    await this.kind.destroy(db);
  }

  /** Destroys the databases kept for reuse (at the end of a test file). */
  async drain(): Promise<void> {
    const all = this.idle.splice(0);
    await Promise.all(all.map((db) => this.kind.destroy(db)));
  }

  /** How many databases wait for reuse (the pool's own tests). */
  get idleCount(): number {
    return this.idle.length;
  }
}

/** In-memory PGlite databases opened from the template tarball (each holds about 60 MB). */
export class PglitePool extends ReusePool<PGlite> implements PgliteSource {
  constructor(tarball: () => Promise<Blob>, maxIdle?: number) {
    super(
      {
        create: async () => openPglite({ template: await tarball() }),
        session: (db, work) => work(db),
        destroy: (db) => db.close(),
      },
      maxIdle,
    );
  }
}

interface TemplateState {
  /** Every table of the user schemas, qualified and quoted. */
  tables: string[];
  /** The rows of the tables that have any, as JSON. */
  rows: { table: string; json: string }[];
  sequences: { name: string; value: string | null; start: string }[];
  catalog: string;
}

const USER_SCHEMA = `nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_toast%'
  AND nspname NOT LIKE 'pg\\_temp%'`;

/** A digest of everything in the catalog a test could change besides rows. */
const CATALOG_DIGEST = `
SELECT md5(string_agg(x, E'\\n' ORDER BY x)) AS digest FROM (
  SELECT format('class %s.%s %s %s %s %s', n.nspname, c.relname, c.relkind, c.relpersistence,
    c.relrowsecurity, c.reloptions) AS x
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE ${USER_SCHEMA}
  UNION ALL SELECT format('column %s %s %s %s %s %s', a.attrelid::regclass, a.attname, a.atttypid, a.atttypmod,
    a.attnotnull, a.attisdropped)
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE a.attnum > 0 AND ${USER_SCHEMA}
  UNION ALL SELECT format('default %s %s %s', d.adrelid::regclass, d.adnum, pg_get_expr(d.adbin, d.adrelid))
    FROM pg_attrdef d
  UNION ALL SELECT format('constraint %s %s %s', conrelid::regclass, conname, pg_get_constraintdef(oid))
    FROM pg_constraint WHERE connamespace IN (SELECT oid FROM pg_namespace WHERE ${USER_SCHEMA})
  UNION ALL SELECT format('trigger %s %s %s %s', tgrelid::regclass, tgname, tgenabled, tgfoid)
    FROM pg_trigger WHERE NOT tgisinternal
  UNION ALL SELECT format('function %s %s %s', pronamespace::regnamespace, proname, md5(prosrc))
    FROM pg_proc WHERE pronamespace IN (SELECT oid FROM pg_namespace WHERE ${USER_SCHEMA})
  UNION ALL SELECT format('type %s %s', typnamespace::regnamespace, typname)
    FROM pg_type WHERE typnamespace IN (SELECT oid FROM pg_namespace WHERE ${USER_SCHEMA})
  UNION ALL SELECT format('rule %s %s %s', ev_class::regclass, rulename, ev_enabled) FROM pg_rewrite
    WHERE ev_class IN (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE ${USER_SCHEMA})
  UNION ALL SELECT format('policy %s %s', polrelid::regclass, polname) FROM pg_policy
  UNION ALL SELECT format('schema %s %s', nspname, nspowner) FROM pg_namespace
  UNION ALL SELECT format('role %s %s %s %s', rolname, rolsuper, rolcanlogin, rolconfig) FROM pg_roles
  UNION ALL SELECT format('setting %s %s', setrole, setconfig) FROM pg_db_role_setting
    WHERE setdatabase IN (0, (SELECT oid FROM pg_database WHERE datname = current_database()))
  UNION ALL SELECT format('database %s %s', datallowconn, datconnlimit) FROM pg_database
    WHERE datname = current_database()
  UNION ALL SELECT format('extension %s %s', extname, extversion) FROM pg_extension
) q`;

/** What the reset needs of a connection: PGlite itself, or a node-postgres client (the PostgreSQL pass). */
interface SqlSession {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

async function catalogDigest(db: SqlSession): Promise<string> {
  return (await db.query<{ digest: string }>(CATALOG_DIGEST)).rows[0].digest;
}

async function describeTemplate(db: SqlSession): Promise<TemplateState> {
  const tables = (
    await db.query<{ name: string }>(
      `SELECT c.oid::regclass::text AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p') AND ${USER_SCHEMA} ORDER BY 1`,
    )
  ).rows.map((r) => r.name);
  const rows: TemplateState['rows'] = [];
  for (const table of tables) {
    const { json } = (
      await db.query<{ json: string | null }>(
        `SELECT json_agg(t ORDER BY t::text)::text AS json FROM ${table} t`,
      )
    ).rows[0];
    if (json) rows.push({ table, json });
  }
  const sequences = (
    await db.query<{ name: string; value: string | null; start: string }>(
      `SELECT format('%I.%I', schemaname, sequencename) AS name, last_value::text AS value,
        start_value::text AS start FROM pg_sequences`,
    )
  ).rows;
  return { tables, rows, sequences, catalog: await catalogDigest(db) };
}

/** Resets `db` to the template; false when it cannot be (its catalog changed), and it must be closed. */
async function resetToTemplate(db: SqlSession, template: TemplateState): Promise<boolean> {
  // outside any transaction an app left open, with the session's state gone
  await db.query('ROLLBACK');
  await db.query('DISCARD ALL');
  if ((await catalogDigest(db)) !== template.catalog) return false;
  const nonEmpty = (
    await db.query<{ name: string }>(
      template.tables
        .map((t, i) => `SELECT $${i + 1}::text AS name WHERE EXISTS (SELECT 1 FROM ${t})`)
        .join(' UNION ALL '),
      template.tables,
    )
  ).rows.map((r) => r.name);
  // the template's own rows, where they are no longer as they were
  const changedSeeds: TemplateState['rows'] = [];
  for (const seed of template.rows) {
    const { json } = (
      await db.query<{ json: string | null }>(
        `SELECT json_agg(t ORDER BY t::text)::text AS json FROM ${seed.table} t`,
      )
    ).rows[0];
    if (json !== seed.json) changedSeeds.push(seed);
  }
  const unchanged = new Set(template.rows.filter((r) => !changedSeeds.includes(r)).map((r) => r.table));
  await db.query('BEGIN');
  try {
    // DELETE rather than TRUNCATE: a few rows in a few tables, where TRUNCATE (with CASCADE through every
    // table that references one of them) creates new files for each; foreign keys and triggers aside while the
    // rows go and the template's come back (they held in the template)
    await db.query('SET LOCAL session_replication_role = replica');
    for (const table of nonEmpty) if (!unchanged.has(table)) await db.query(`DELETE FROM ${table}`);
    for (const { table, json } of changedSeeds) {
      await db.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`, [
        json,
      ]);
    }
    for (const s of template.sequences) {
      await db.query('SELECT setval($1::regclass, $2::bigint, $3)', [
        s.name,
        s.value ?? s.start,
        s.value !== null,
      ]);
    }
    await db.query('COMMIT');
  } catch (err) {
    await db.query('ROLLBACK');
    throw err;
  }
  return true;
}
