import { type ArgumentsHost, type ExceptionFilter, type Logger, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RateLimiter } from '../rate-limit/rate-limiter.js';

/**
 * An exception filter of one surface's error form (the platform's `{errors}`, RFC 6749's JSON, the consent
 * page's HTML): the thrown value is translated to the surface's error, then rendered once the request has
 * been charged to the rate limit (answerAfterCharge). Nothing is sent when the response has already started.
 */
export abstract class SurfaceExceptionFilter<E> implements ExceptionFilter {
  protected abstract readonly logger: Logger;

  constructor(@Optional() private readonly limiter?: RateLimiter) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const err = this.translate(exception, req);
    answerAfterCharge(this.limiter, req, res, () => this.render(err, req, res));
  }

  /** Any thrown value as the surface's error (unknown ones logged with the request id). */
  protected abstract translate(exception: unknown, req: Request): E;

  /** Sends the error answer. */
  protected abstract render(err: E, req: Request, res: Response): void;
}

/**
 * Sends an error answer once the request has been charged to the rate limit. Answers that never reached the
 * guard (unknown path, unreadable body) are charged to the client's address here, so that every response
 * carries RateLimit-Remaining; the others were charged by the guard and go out at once.
 */
export function answerAfterCharge(
  limiter: RateLimiter | undefined,
  req: Request,
  res: Response,
  send: () => void,
): void {
  if (!limiter || res.getHeader('RateLimit-Remaining') !== undefined) return send();
  void limiter
    .chargeUnrouted(req, res)
    .then(() => {
      if (!res.headersSent) send();
    })
    .catch(() => undefined);
}
