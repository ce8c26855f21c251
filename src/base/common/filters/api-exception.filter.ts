import { isScimRequest, SCIM_CONTENT_TYPE, ScimError, scimErrorBody } from '../errors/scim-error.js';
import { Catch, HttpException, Logger } from '@nestjs/common';
import { unavailable } from '../errors/request.errors.js';
import type { Request, Response } from 'express';
import { ApiError } from '../errors/api-error.js';
import { allowedMethods } from '../http/method-not-allowed.js';
import { isUnavailable } from '../errors/unavailable.js';
import { SurfaceExceptionFilter } from './surface-exception.filter.js';

/**
 * Every failure leaves as JSON in the spec's shape. An unreachable database is a 503 with Retry-After on
 * every route. Unknown errors become a 500 without internals, logged with the request id. Nest's own HttpExceptions (body-parser, route not found) are translated.
 */
@Catch()
export class ApiExceptionFilter extends SurfaceExceptionFilter<ApiError> {
  protected readonly logger = new Logger('Errors');

  protected translate(exception: unknown, req: Request): ApiError {
    return toApiError(exception, req, this.logger);
  }

  protected render(err: ApiError, req: Request, res: Response): void {
    for (const [k, v] of Object.entries({ ...err.headers, ...this.headersFor(req, err) }))
      res.setHeader(k, v);
    // the body keeps the spec's shape; the machine-readable code travels beside it
    if (err.code) res.setHeader('X-Error-Code', err.code);
    if (OAUTH_FORM_ENDPOINT.test(req.path) && (err.status === 400 || err.status === 413)) {
      // a body the parsers refused before the OAuth endpoint ran: still RFC 6749's form there
      res.setHeader('Cache-Control', 'no-store');
      res.status(err.status).json({ error: 'invalid_request', error_description: errorText(err) });
      return;
    }
    if (isScimRequest(req.path)) {
      // the SCIM service answers every error, the guard's and the parsers' too, in RFC 7644's form
      const scimType = err instanceof ScimError ? err.scimType : undefined;
      res.status(err.status).setHeader('Content-Type', SCIM_CONTENT_TYPE);
      res.send(JSON.stringify(scimErrorBody(err.status, err.errors, scimType)));
      return;
    }
    res.status(err.status).json({ errors: err.errors });
  }

  /** Headers a surface adds to its error answers (the userinfo endpoint's RFC 6750 challenge); none here. */
  protected headersFor(_req: Request, _err: ApiError): Record<string, string> {
    return {};
  }
}

/** The endpoints that answer in RFC 6749 form (OAuthExceptionFilter) even when their body cannot be read. */
const OAUTH_FORM_ENDPOINT = /^\/API\/auth\/v1\/oauth\/(token|revoke|introspect)\/?$/;

/** An error's messages as one line (for forms that carry a single description). */
export function errorText(err: ApiError): string {
  return Array.isArray(err.errors)
    ? err.errors.join('; ')
    : Object.entries(err.errors)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ');
}

/**
 * Any thrown value as an ApiError: ours as they are, Nest's and body-parser's translated, an unreachable
 * database a 503, anything else a logged 500. Every surface's mapper starts here and only renders.
 */
export function toApiError(exception: unknown, req: Request, logger: Logger): ApiError {
  if (exception instanceof ApiError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404 && /^Cannot \w+ /.test(exception.message)) {
      const allow = allowedMethods(req);
      if (allow.length > 0) {
        return new ApiError(405, [`Method ${req.method} not allowed`], { Allow: allow.join(', ') });
      }
      return new ApiError(404, [`Not found: ${req.method} ${req.path}`]);
    }
    const body = exception.getResponse();
    // Nest wraps body-parser's SyntaxError in a BadRequestException; the parser's own wording stays inside
    const cause = (exception as { cause?: { type?: string } }).cause;
    if (status === 400 && cause?.type === 'entity.parse.failed') {
      return ApiError.badRequest('Malformed JSON body');
    }
    const message =
      typeof body === 'object' && body !== null && 'message' in body
        ? [(body as { message: unknown }).message].flat().map(String)
        : [exception.message];
    return new ApiError(status, message);
  }
  const e = exception as {
    status?: number;
    statusCode?: number;
    type?: string;
    expose?: boolean;
    message?: string;
  };
  // body-parser and friends throw http-errors style objects before Nest's pipeline
  const httpStatus = e?.status ?? e?.statusCode;
  if (typeof httpStatus === 'number' && httpStatus >= 400 && httpStatus < 500 && e.expose !== false) {
    return new ApiError(httpStatus, [
      e.type === 'entity.parse.failed' ? 'Malformed JSON body' : (e.message ?? 'Bad request'),
    ]);
  }
  // the database is unreachable: the client should retry, not sign its user out or give up
  if (isUnavailable(exception)) {
    logger.warn({ request_id: req.id, err: (exception as Error)?.message }, 'Database unavailable');
    return unavailable();
  }
  logger.error({ err: exception, request_id: req.id }, 'Unhandled error');
  return new ApiError(500, ['Internal server error']);
}
