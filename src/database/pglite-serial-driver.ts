import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';

// typeorm-pglite is CommonJS; its pool class is not re-exported from the package root.
const require = createRequire(import.meta.url);
const { PGliteDriver } = require('typeorm-pglite') as typeof import('typeorm-pglite');

/**
 * PGlite is one database session. typeorm-pglite hands that same session to every "connection", so two
 * concurrent transactions would interleave (and a rollback would take the other request's writes with
 * it). This pool gives the session to one checkout at a time: a connection is held from connect() to
 * release, exactly like a one-connection PostgreSQL pool.
 */
export function createSerialPgliteDriver(dataDir: string | undefined): unknown {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const base = new PGliteDriver(dataDir ? { dataDir } : {}).driver as unknown as {
    Pool: new () => PoolLike;
  };
  const BasePool = base.Pool;

  class SerialPool extends (BasePool as unknown as new () => PoolLike) {
    private tail: Promise<void> = Promise.resolve();
    override connect(callback: ConnectCallback): void {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => (release = resolve));
      const previous = this.tail;
      this.tail = previous.then(() => turn);
      void previous.then(() =>
        super.connect((err, client) => {
          let released = false;
          const done = () => {
            if (!released) {
              released = true;
              release();
            }
          };
          if (err) done();
          callback(err, client, done);
        }),
      );
    }
  }
  return { Pool: SerialPool };
}

type ConnectCallback = (err: Error | null, client: unknown, done: () => void) => void;
interface PoolLike {
  connect(callback: ConnectCallback): void;
}
