import { type ArgumentsHost, type ExceptionFilter, type Logger, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import { answerAfterCharge } from '../../base/common/filters/api-exception.filter.js';
import { RateLimiter } from '../../base/common/rate-limit/rate-limiter.js';

/**
 * An exception filter of a surface that answers in a form of its own (RFC 6749's JSON, the consent page's
 * HTML): the thrown value is translated to the surface's error, then rendered once the request has been
 * charged to the rate limit (answerAfterCharge). Nothing is sent when the response has already started.
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
