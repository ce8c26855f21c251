import type { INestApplication, LoggerService } from '@nestjs/common';
import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * SIGTERM / SIGINT: stop accepting connections, let the requests in flight finish (at most `graceMs`), then
 * close the application — the workers stop after their round in flight (a claimed row is finished or its
 * lease runs out), the Redis connections and the database pool close — and end by the same signal, as a
 * process killed by it would. While stopping, answers carry `Connection: close` so keep-alive clients open
 * their next request elsewhere.
 */
export function stopGracefully(app: INestApplication, graceMs: number, log: LoggerService): void {
  const server = app.getHttpServer() as Server;
  let stopping = false;
  server.on('request', (_req, res) => {
    if (stopping && !res.headersSent) res.setHeader('Connection', 'close');
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.log(`${signal}: stopping (in-flight requests get up to ${graceMs} ms)`, 'Shutdown');
    // net.Server's close, not http.Server's: the latter also drops connections that have no request *yet*,
    // and a client that just connected would see its request reset. Keep-alive connections end after their
    // answer (Connection: close) or, idle, at the server's keepAliveTimeout.
    const drained = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    const bound = new Promise<void>((resolve) =>
      setTimeout(() => {
        log.warn(`requests still running after ${graceMs} ms: closing their connections`, 'Shutdown');
        server.closeAllConnections();
        resolve();
      }, graceMs).unref(),
    );
    void Promise.race([drained, bound])
      .then(() => app.close())
      .then(
        () => {
          process.removeAllListeners(signal);
          process.kill(process.pid, signal);
        },
        (err: Error) => {
          log.error(`shutdown failed: ${err.message}`, 'Shutdown');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
