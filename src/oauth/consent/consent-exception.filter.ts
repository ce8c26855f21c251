import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError } from '../../common/errors/api-error.js';
import { unavailable } from '../../common/errors/request.errors.js';
import { isUnavailable } from '../../common/errors/unavailable.js';
import { errorPage } from './consent-pages.js';

const NOTE = 'Go back to the application and start again. If this keeps happening, contact its developer.';

/**
 * The HTML surface's mapper: on the consent page, a person's browser gets a page, never JSON. Coded errors
 * show their message with their status (the code in X-Error-Code, as on the JSON surface); an unreachable
 * database is a 503 page with Retry-After; anything else a 500 page, logged with the request id.
 */
@Catch()
export class ConsentExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Consent');

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    let err: ApiError;
    if (exception instanceof ApiError) err = exception;
    else if (isUnavailable(exception)) err = unavailable();
    else if (exception instanceof HttpException && exception.getStatus() < 500) {
      err = new ApiError(exception.getStatus(), ['The request could not be read']);
    } else {
      this.logger.error({ err: exception, request_id: req.id }, 'Unhandled consent page error');
      err = new ApiError(500, ['Something went wrong on our side']);
    }
    for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
    if (err.code) res.setHeader('X-Error-Code', err.code);
    const detail = Array.isArray(err.errors)
      ? err.errors.join(' ')
      : Object.entries(err.errors)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ');
    const title =
      err.status === 503 ? 'Temporarily unavailable' : err.status >= 500 ? 'Error' : 'Request refused';
    res
      .status(err.status)
      .setHeader('Cache-Control', 'no-store')
      .setHeader('X-Frame-Options', 'DENY')
      .setHeader(
        'Content-Security-Policy',
        "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
      )
      .setHeader('Content-Type', 'text/html; charset=utf-8')
      .send(errorPage(title, detail, NOTE));
  }
}
