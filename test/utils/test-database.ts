import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openPglite, type PgliteSource } from '../../src/base/database/pglite-serial-driver.js';
import { type DatabaseKind, PglitePool, ReusePool } from './pglite-pool.js';

/**
 * A database per test app. With DATABASE_URL set (CI's PostgreSQL pass), a database of its own on that
 * server, created here and dropped at close; without it, in-memory PGlite (nothing to drop).
 *
 * `migrated: true` (createTestApp): the database starts with every migration applied, copied from a template
 * migrated once, instead of migrating from zero in every app (that was most of the suites' time):
 * - PGlite: the template is a data directory tarball (`dumpDataDir`) cached in
 *   `node_modules/.cache/portcullis-tests/pglite-<hash>.tar`, loaded by the driver (`loadDataDir`); a
 *   database an app hands back is reset to it and reused by the next app of the test file (pglite-pool.ts).
 * - PostgreSQL: a database `portcullis_tmpl_<hash>` on the server, cloned with `CREATE DATABASE … TEMPLATE`.
 * `<hash>` covers the migration files' contents and the PGlite version, so a changed migration builds a new
 * template. The app still runs its migrations at start, and finds none pending.
 * Without it (the default), the database is empty: suites that test migrations or concurrent start-ups run
 * the real migrations from zero.
 */
export interface TestDatabase {
  /** The PostgreSQL database's URL; null on PGlite. */
  url: string | null;
  /** PGlite: where the in-memory database comes from (`config.database.pglite`): reset to the migrated template. */
  pglite?: PgliteSource;
  drop: () => Promise<void>;
}

export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    return {
      url: null,
      ...(options.migrated ? { pglite: pglitePool } : {}),
      drop: async () => undefined,
    };
  }
  if (options.migrated) {
    const pool = postgresPool(serverUrl);
    const name = await pool.open();
    return { url: databaseUrl(serverUrl, name), drop: () => pool.close(name) };
  }
  const name = `portcullis_t_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: databaseUrl(serverUrl, name),
    drop: async () => {
      await onServer(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

/**
 * Makes sure the template exists, building it if not: the e2e project's setup file calls it in a `beforeAll`
 * with room for initdb and every migration on a loaded machine, so no suite's own hook pays for it.
 */
export async function prepareTemplate(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) await postgresTemplate(serverUrl);
  else if (!existsSync(await pgliteTemplateFile())) await buildPgliteTemplateOnce();
}

/**
 * The PGlite template is built by one jest worker at a time (a lock directory beside it, created atomically);
 * the others wait for its file instead of building it too, on a fresh clone where both workers start at
 * once. A lock older than the setup's 10 minutes is a crashed build's, and is taken over.
 */
async function buildPgliteTemplateOnce(): Promise<void> {
  const file = await pgliteTemplateFile();
  const lock = `${file}.lock`;
  await mkdir(CACHE_DIR, { recursive: true });
  for (;;) {
    if (existsSync(file)) return;
    try {
      await mkdir(lock);
    } catch {
      const age = Date.now() - ((await stat(lock).catch(() => null))?.mtimeMs ?? Date.now());
      if (age > 10 * 60_000) await rm(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 250));
      continue;
    }
    try {
      if (!existsSync(file)) await pgliteTemplate();
      return;
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MIGRATIONS_DIR = join(ROOT, 'src/base/database/migrations');
const CACHE_DIR = join(ROOT, 'node_modules/.cache/portcullis-tests');
// the template of one server is built by one jest worker at a time (arbitrary, fixed)
const TEMPLATE_LOCK_KEY = 4_280_517_732;
const KEY_ENCRYPTION_SECRET = 'test-key-encryption-secret-0123456789';

/** What a template depends on: every migration file's name and contents, and the PGlite version. */
async function templateHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of (await readdir(MIGRATIONS_DIR)).sort()) {
    hash
      .update(`${file}\0`)
      .update(await readFile(join(MIGRATIONS_DIR, file)))
      .update('\0');
  }
  const pglite = JSON.parse(
    await readFile(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string };
  hash.update(`pglite ${pglite.version}`);
  return hash.digest('hex').slice(0, 16);
}

/** Reads the cached tarball, or migrates a fresh PGlite and writes it (atomically: a rename). */
async function pgliteTemplateFile(): Promise<string> {
  return join(CACHE_DIR, `pglite-${await templateHash()}.tar`);
}

/** The migrated in-memory databases of this test file's apps (pglite-pool.ts). */
const pglitePool = new PglitePool(() => pgliteTemplate());

/**
 * The migrated databases of this test file's apps on the PostgreSQL server, reused the same way: an app's
 * database is reset to the template when it closes (its connections ended first) and handed to the next app;
 * one whose catalog changed (the outage tests' `ALLOW_CONNECTIONS false`) is dropped. Cloning one with
 * `CREATE DATABASE … TEMPLATE` takes about half a second here.
 */
function postgresDatabases(serverUrl: string): DatabaseKind<string> {
  return {
    create: async () => {
      const template = await postgresTemplate(serverUrl);
      const name = `portcullis_t_${randomBytes(6).toString('hex')}`;
      await onServer(serverUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE ${template}`));
      return name;
    },
    session: (name, work) =>
      onServer(databaseUrl(serverUrl, name), async (c) => {
        // nothing of the app's may write after the reset
        await c.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        return work(c);
      }),
    destroy: async (name) => {
      await onServer(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

let pgPool: ReusePool<string> | null = null;
function postgresPool(serverUrl: string): ReusePool<string> {
  pgPool ??= new ReusePool(postgresDatabases(serverUrl));
  return pgPool;
}

/** Closes or drops the databases the pools keep for reuse: the e2e setup file calls it after each test file. */
export async function drainDatabasePools(): Promise<void> {
  await Promise.all([pglitePool.drain(), pgPool?.drain()]);
}

/**
 * An app given a data directory on disk (`DATA_DIR`) starts from the migrated template too, written there
 * before it starts, unless the directory holds a database already.
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  const dir = join(dataDir, 'pglite');
  if (existsSync(join(dir, 'PG_VERSION'))) return;
  await mkdir(dir, { recursive: true });
  const db = await openPglite({ dataDir: dir, template: await pgliteTemplate() });
  await db.close();
}

/**
 * The template, read once per process (a jest worker starts dozens of apps): re-reading its 43 MB for each
 * app was a third of a second per start on a loaded machine. A Blob is immutable, so every app can load from
 * the same one.
 */
let template: Promise<Blob> | null = null;
export function pgliteTemplate(): Promise<Blob> {
  template ??= readOrBuildPgliteTemplate();
  template.catch(() => (template = null));
  return template;
}

async function readOrBuildPgliteTemplate(): Promise<Blob> {
  const file = await pgliteTemplateFile();
  const cached = await readFile(file).catch(() => null);
  if (cached) return new Blob([cached]);
  // imported here: the setup file of every e2e suite imports this module, most of them never build
  const { loadConfig } = await import('../../src/app/config.js');
  const { createDataSource, runMigrations } = await import('../../src/base/database/data-source.js');
  const ds = await createDataSource(
    loadConfig({ DATA_DIR: 'memory://', KEY_ENCRYPTION_SECRET }),
  ).initialize();
  let tarball: Blob;
  try {
    await runMigrations(ds);
    tarball = await (
      ds.driver as unknown as { master: { dumpDataDir(): Promise<Blob> } }
    ).master.dumpDataDir();
  } finally {
    await ds.destroy();
  }
  await mkdir(CACHE_DIR, { recursive: true });
  const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(partial, Buffer.from(await tarball.arrayBuffer()));
  await rename(partial, file);
  return tarball;
}

/**
 * The name of the migrated template database on the server, built if missing. Only a complete template
 * carries the name (built under another name, then renamed), and the build runs under an advisory lock, so
 * concurrent workers neither clone a half-migrated database nor build it twice. Nothing stays connected to
 * it: CREATE DATABASE … TEMPLATE refuses a template with open connections.
 */
async function postgresTemplate(serverUrl: string): Promise<string> {
  const name = `portcullis_tmpl_${await templateHash()}`;
  const exists = async (c: pg.Client) =>
    (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  return onServer(serverUrl, async (c) => {
    if (await exists(c)) return name;
    await c.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      if (await exists(c)) return name;
      const building = `${name}_b${randomBytes(4).toString('hex')}`;
      await c.query(`CREATE DATABASE ${building}`);
      try {
        await migrate(databaseUrl(serverUrl, building));
        await c.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } catch (err) {
        await c.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
        throw err;
      }
      return name;
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
}

async function migrate(url: string): Promise<void> {
  const { loadConfig } = await import('../../src/app/config.js');
  const { createDataSource, runMigrations } = await import('../../src/base/database/data-source.js');
  const ds = await createDataSource(loadConfig({ DATABASE_URL: url, KEY_ENCRYPTION_SECRET })).initialize();
  try {
    await runMigrations(ds);
  } finally {
    await ds.destroy();
  }
}

async function onServer<T>(serverUrl: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
