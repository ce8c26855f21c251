import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pino, type Logger as PinoLogger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { LoggerService } from '@nestjs/common';

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

export function createLogger(level: string): PinoLogger {
  return pino({
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: 'portcullis' },
  });
}

/** Structured access log with a request id (honours an incoming X-Request-Id, echoes it back). */
export function requestLogger(logger: PinoLogger) {
  return pinoHttp({
    logger,
    genReqId: (req: IncomingMessage, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // the URL may carry secrets in query strings (e.g. ?token=); log the path only
    serializers: {
      req: (req: { id: string; method: string; url: string; headers: Record<string, unknown> }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
        user_agent: req.headers['user-agent'],
      }),
    },
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'info' : 'debug',
  });
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
    this.write('info', message, rest);
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
