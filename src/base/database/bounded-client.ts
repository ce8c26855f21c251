import pg from 'pg';
import { OUTAGE_CAUSE } from '../common/errors/unavailable.js';
import type { BaseConfig } from '../config/config.js';

type Callback = (err: Error | null, ...rest: unknown[]) => void;

function tagConnect(err: unknown): unknown {
  if (err && typeof err === 'object') (err as Record<symbol, unknown>)[OUTAGE_CAUSE] = 'connect';
  return err;
}

/**
 * The pool's client (pg-pool's documented `Client` option). It adds two things pg does not do by itself:
 *
 * - an error while connecting is tagged `connect` (common/errors/unavailable.ts), whatever its code: refused,
 *   unreachable, `ALLOW_CONNECTIONS false` (55000, which is no outage anywhere else), too many connections;
 * - a query that outlived `query_timeout` stays the connection's active query in pg: back in the pool, the
 *   client would make every later query wait behind it (and time out) until the OS gives up on the socket,
 *   minutes later, or never when a proxy's end still answers. The client is ended and its socket destroyed,
 *   so the pool drops it and opens a fresh one: this is what lets a stalled network recover on its own.
 */
export class BoundedClient extends pg.Client {
  override connect(): Promise<pg.Client>;
  override connect(callback: (err: Error) => void): void;
  override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
    if (callback) return super.connect((err: Error) => callback(tagConnect(err) as Error));
    return super.connect().catch((err: unknown) => {
      throw tagConnect(err);
    });
  }

  override query(...args: unknown[]): never {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const done = args[last] as Callback;
      args[last] = (err: Error | null, ...rest: unknown[]) => {
        if (err) this.dropIfStalled(err);
        done(err, ...rest);
      };
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) {
      return result.catch((err: unknown) => {
        this.dropIfStalled(err);
        throw err;
      }) as never;
    }
    return result as never;
  }

  private dropIfStalled(err: unknown): void {
    if ((err as Error)?.message !== 'Query read timeout') return;
    // end() marks the client as ending at once (pg-pool drops such a client on release, and its closing
    // raises no error event); the socket is destroyed rather than closed politely, the peer may be gone
    this.end().catch(() => undefined);
    (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
}

/** pg-pool options: every wait bounded, TCP keepalive on, the client above. */
export function poolOptions(config: BaseConfig['database']['pool']): Record<string, unknown> {
  return {
    Client: BoundedClient,
    max: config.max,
    connectionTimeoutMillis: config.connectTimeoutMs,
    idleTimeoutMillis: config.idleTimeoutMs,
    query_timeout: config.queryTimeoutMs,
    statement_timeout: config.statementTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: config.keepAliveMs,
  };
}
