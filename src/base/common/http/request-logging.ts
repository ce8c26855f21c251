import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type Logger as PinoLogger } from 'pino';
import type { LoggerService } from '@nestjs/common';
import { redactPath } from './secret-paths.js';
import { prettyStream } from './pretty-log.js';

/** Header and body paths that never reach a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["auth-token"]',
  'req.headers["temp-auth-token"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.repeat_password',
  '*.client_secret',
  '*.refresh_token',
  '*.token',
  '*.access_token',
];

/** `pretty`: human-readable lines (pretty-log.ts); `json`: one JSON object per line (the default off a TTY). */
export function createLogger(level: string, format: 'json' | 'pretty' = 'json'): PinoLogger {
  const options = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: 'portcullis' },
  };
  // JSON lines go to process.stdout, which writes synchronously to files and pipes (Node's rule on Linux):
  // pino's default destination writes asynchronously and flushes on the process's `exit` event, which a
  // graceful stop (shutdown.ts ends by re-raising its signal) never fires, so the access-log lines of the
  // last answered requests could be lost. At the default level only refusals and errors are logged.
  return format === 'pretty'
    ? pino(options, prettyStream(process.stdout, !!process.stdout.isTTY))
    : pino(options, process.stdout);
}

/**
 * Nest's start-up chatter (module initialisation, every route mapped, "successfully started") is debug: at
 * the default level a start prints what an operator needs, and the banner (main.ts) ends it.
 */
const START_UP_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

type LoggedRequest = IncomingMessage & { id?: string; originalUrl?: string };
type Level = 'debug' | 'info' | 'warn' | 'error';

const ABORT_LEVEL = Symbol('abortLevel');
type Rated = ServerResponse & { [ABORT_LEVEL]?: Level };

/**
 * How the access log rates this response's connection closing before the answer ended (`error` unless a
 * route says otherwise): a download sets `warn` while its body streams (a client cutting a transfer short is
 * not the service's failure) and `debug` once every byte was handed over (a client that closes as soon as it
 * has Content-Length bytes did nothing wrong).
 */
export function setAbortLevel(res: ServerResponse, level: 'debug' | 'warn'): void {
  (res as Rated)[ABORT_LEVEL] = level;
}

/**
 * Structured access log with a request id (honours an incoming X-Request-Id, echoes it back). One line per
 * request when it ends: `debug` for success, `info` for 4xx, `error` for 5xx and for a request whose
 * connection closed before the response was sent (unless its route rated that: setAbortLevel). The line carries the request's id, method, path (never
 * the query string, which may hold secrets, and with the secret segment of secret-bearing routes redacted:
 * see secret-paths.ts), user agent, status and duration — and no header, so no credential can reach it.
 *
 * Written here rather than with pino-http: pino-http builds a child logger per request, serialising and
 * redacting the request into it, whether or not a line is ever written; at the default level (successes
 * are not logged) that was most of the work, about 10% of the CPU of the cheapest route. Here a request
 * costs an id and a listener until a line is actually written. The id is `req.id` for the rest of the
 * request (the guard puts it on AuthContext; the webhook outbox records it with events).
 *
 * `onFinished` (the HTTP metrics) is told of every request whose response was sent, with its duration in
 * seconds, from the same listener: a second middleware and listener per request cost more than the record.
 */
export function requestLogger<
  Req extends LoggedRequest = LoggedRequest,
  Res extends ServerResponse = ServerResponse,
>(logger: PinoLogger, onFinished?: (req: Req, res: Res, seconds: number) => void) {
  return (req: Req, res: Res, next: () => void): void => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    const start = performance.now();
    // one listener: a response emits `close` once it has ended, a tick after `finish`, and also when its
    // connection closed first (then it never finished)
    res.on('close', () => {
      const aborted = !res.writableFinished;
      const status = res.statusCode;
      const elapsed = performance.now() - start;
      if (!aborted) onFinished?.(req, res, elapsed / 1000);
      const level: Level = aborted
        ? ((res as Rated)[ABORT_LEVEL] ?? 'error')
        : status >= 500
          ? 'error'
          : status >= 400
            ? 'info'
            : 'debug';
      if (!logger.isLevelEnabled(level)) return;
      const url = req.originalUrl ?? req.url ?? '';
      logger[level](
        {
          req: {
            id,
            method: req.method,
            path: redactPath(url.split('?')[0]),
            user_agent: req.headers['user-agent'],
          },
          res: { statusCode: status },
          responseTime: Math.round(elapsed),
        },
        aborted ? 'request aborted' : 'request completed',
      );
    });
    next();
  };
}

/** Nest's own log lines through the same pino logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: PinoLogger) {}
  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, rest: unknown[]) {
    const context = rest.length ? rest[rest.length - 1] : undefined;
    if (typeof message === 'object' && message !== null) this.logger[level]({ context, ...message });
    else this.logger[level]({ context }, String(message));
  }
  log(message: unknown, ...rest: unknown[]) {
    const context = rest[rest.length - 1];
    this.write(
      typeof context === 'string' && START_UP_CONTEXTS.has(context) ? 'debug' : 'info',
      message,
      rest,
    );
  }
  error(message: unknown, ...rest: unknown[]) {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.write('trace', message, rest);
  }
}
