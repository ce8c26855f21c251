import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { PGlite, types } from '@electric-sql/pglite';

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
 * A pg-compatible pool over one PGlite database, for TypeORM's postgres driver (`driver: { Pool }`).
 * - Each pool owns its PGlite instance. typeorm-pglite keeps a process-wide one, so two data sources in one
 *   process (two test apps) shared a database and closing one closed the other's.
 * - PGlite is one session: a checkout holds it from connect() to release, like a one-connection pool.
 *   Otherwise two concurrent transactions interleave, and a rollback takes the other request's writes.
 * - `template`: a data directory tarball (`dumpDataDir()`) an in-memory database starts from instead of an
 *   empty one; the tests start every app from one migrated template (test/utils/test-database.ts).
 */
export function createSerialPgliteDriver(dataDir: string | undefined, template?: Blob): unknown {
  if (dataDir) mkdirSync(dataDir, { recursive: true });

  class SerialPglitePool extends EventEmitter {
    private db: Promise<PGlite> | null = null;
    private tail: Promise<void> = Promise.resolve();

    private instance(): Promise<PGlite> {
      this.db ??= PGlite.create({
        ...(dataDir ? { dataDir } : {}),
        ...(template && !dataDir ? { loadDataDir: template } : {}),
        serializers: { [types.BOOL]: boolSerializer },
      });
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
      void (db ? db.then((d) => d.close()) : Promise.resolve()).then(
        () => callback?.(null),
        (err: Error) => callback?.(err),
      );
    }
  }
  return { Pool: SerialPglitePool };
}
