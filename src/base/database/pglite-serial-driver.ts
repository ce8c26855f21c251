import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

type Callback = (err: Error | null, result?: unknown) => void;
type ConnectCallback = (err: Error | null, client: unknown, done: () => void) => void;

// PostgreSQL takes JS booleans as TRUE/FALSE; PGlite needs to be told.
const boolSerializer = (v: unknown): string =>
  v === true || v === 'true' || v === 1
    ? 'TRUE'
    : v === false || v === 'false' || v === 0
      ? 'FALSE'
      : (v as string); // anything else passes through untouched

/**
 * PGlite's WebAssembly compiled once per process and its file-system bundle read once, shared by every
 * database the process opens. PGlite reads and compiles both anew for each instance otherwise: a test
 * process opens a database per test app, and compiling 9 MB of WebAssembly (with V8's background tier-up)
 * each time was a large part of an app's start.
 */
let artifacts: Promise<{ wasmModule: WebAssembly.Module; fsBundle: Blob }> | null = null;
function pgliteArtifacts(): Promise<{ wasmModule: WebAssembly.Module; fsBundle: Blob }> {
  artifacts ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, data] = await Promise.all([
      readFile(join(dist, 'pglite.wasm')),
      readFile(join(dist, 'pglite.data')),
    ]);
    return { wasmModule: await WebAssembly.compile(wasm), fsBundle: new Blob([data]) };
  })();
  artifacts.catch(() => (artifacts = null));
  return artifacts;
}

/**
 * Settings of an in-memory database. It has nothing on disk to protect, and it is a test app's or a
 * demo's: PostgreSQL's default 128 MB of shared buffers (zeroed and touched at every start) is far more
 * than such a database holds.
 */
const IN_MEMORY_SETTINGS = ['shared_buffers=16MB'];

/**
 * Opens a PGlite database: on disk under `dataDir`, or in memory; a new one starts from the data directory
 * tarball `template` (`dumpDataDir()`) when given, else empty.
 */
export async function openPglite(options: { dataDir?: string; template?: Blob } = {}): Promise<PGlite> {
  // imported here, not at the top: a service on PostgreSQL (DATABASE_URL) never loads PGlite's module
  const [{ PGlite, types }, shared] = await Promise.all([import('@electric-sql/pglite'), pgliteArtifacts()]);
  return PGlite.create({
    ...shared,
    ...(options.dataDir
      ? { dataDir: options.dataDir }
      : { startParams: [...PGlite.defaultStartParams, ...IN_MEMORY_SETTINGS.flatMap((s) => ['-c', s])] }),
    ...(options.template ? { loadDataDir: options.template } : {}),
    serializers: { [types.BOOL]: boolSerializer },
  });
}

/**
 * Where an in-memory database comes from and goes back to, instead of one opened for the pool and closed with
 * it: the tests hand out databases already reset to their migrated template (test/utils/pglite-pool.ts).
 */
export interface PgliteSource {
  open(): Promise<PGlite>;
  close(db: PGlite): Promise<void>;
}

/**
 * A pg-compatible pool over one PGlite database, for TypeORM's postgres driver (`driver: { Pool }`).
 * - Each pool owns its PGlite instance. typeorm-pglite keeps a process-wide one, so two data sources in one
 *   process (two test apps) shared a database and closing one closed the other's.
 * - PGlite is one session: a checkout holds it from connect() to release, like a one-connection pool.
 *   Otherwise two concurrent transactions interleave, and a rollback takes the other request's writes.
 * - `source` (in memory only): where the database comes from and goes back to at `end()`. A database handed
 *   back may be handed to another pool, so a pool that has ended refuses queries instead of opening another.
 */
export function createSerialPgliteDriver(dataDir: string | undefined, source?: PgliteSource): unknown {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const from: PgliteSource =
    source && !dataDir ? source : { open: () => openPglite({ dataDir }), close: (db) => db.close() };

  class SerialPglitePool extends EventEmitter {
    private db: Promise<PGlite> | null = null;
    private ended = false;
    private tail: Promise<void> = Promise.resolve();

    private instance(): Promise<PGlite> {
      if (this.ended && source) return Promise.reject(new Error('the PGlite pool has ended'));
      this.db ??= from.open();
      return this.db;
    }

    connect(callback: ConnectCallback): void {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => (release = resolve));
      const previous = this.tail;
      this.tail = previous.then(() => turn);
      let released = false;
      const done = () => {
        if (!released) {
          released = true;
          release();
        }
      };
      void previous
        .then(() => this.instance())
        .then(
          () => callback(null, this, done),
          (err: Error) => {
            done();
            callback(err, null, done);
          },
        );
    }

    async query(sql: string, params?: unknown[] | Callback, callback?: Callback): Promise<unknown> {
      const cb = typeof params === 'function' ? params : callback;
      const values = typeof params === 'function' ? undefined : params;
      try {
        const db = await this.instance();
        // exec runs multi-statement strings (migrations); TypeORM wants the last statement's result
        const result =
          values && values.length > 0
            ? // raw: the driver itself, passing on the SQL TypeORM built
              await db.query(sql, values)
            : await db.exec(sql).then((r) => r[r.length - 1] ?? { rows: [] });
        cb?.(null, result);
        return result;
      } catch (err) {
        cb?.(err as Error);
        if (!cb) throw err;
        return undefined;
      }
    }

    /** The whole data directory as an uncompressed tarball, for `template` (`ds.driver.master` is this pool). */
    async dumpDataDir(): Promise<Blob> {
      return (await this.instance()).dumpDataDir('none');
    }

    end(callback?: (err: Error | null) => void): void {
      const db = this.db;
      this.db = null;
      this.ended = true;
      void (db ? db.then((d) => from.close(d)) : Promise.resolve()).then(
        () => callback?.(null),
        (err: Error) => callback?.(err),
      );
    }
  }
  return { Pool: SerialPglitePool };
}
