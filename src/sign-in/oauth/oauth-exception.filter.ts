import { Catch, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError } from '../../base/common/errors/api-error.js';
import type { AppEntity } from '../../base/model/app.entity.js';
import { allowOrigin } from '../../base/common/http/cors.js';
import { isUnavailable } from '../../base/common/errors/unavailable.js';
import { errorText } from '../../base/common/filters/api-exception.filter.js';
import { OAuthError, temporarilyUnavailable } from './oauth.errors.js';
import { SurfaceExceptionFilter } from '../../base/common/filters/surface-exception.filter.js';

/**
 * The token, revocation and introspection endpoints answer in RFC 6749 form `{error, error_description}`;
 * validation failures there are `invalid_request`, and an unreachable database is a 503
 * `temporarily_unavailable`.
 */
@Catch()
export class OAuthExceptionFilter extends SurfaceExceptionFilter<OAuthError> {
  protected override readonly logger = new Logger('OAuth');

  protected override render(err: OAuthError, req: Request, res: Response): void {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Pragma', 'no-cache');
    for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
    const client = (req as Request & { oauthClient?: AppEntity }).oauthClient;
    if (client) allowOrigin(req, res, client);
    res.status(err.status).json({ error: err.error, error_description: err.description });
  }

  protected override translate(exception: unknown, req: Request): OAuthError {
    if (exception instanceof OAuthError) return exception;
    if (exception instanceof ApiError) {
      const text = errorText(exception);
      // the rate limit: RFC 6749 has no code of its own for it; the status and Retry-After say it all
      if (exception.status === 429)
        return new OAuthError('temporarily_unavailable', text, 429, exception.headers);
      return new OAuthError('invalid_request', text, exception.status >= 500 ? 500 : 400);
    }
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      return new OAuthError('invalid_request', exception.message);
    }
    if (isUnavailable(exception)) return temporarilyUnavailable();
    this.logger.error({ err: exception, request_id: req.id }, 'Unhandled OAuth error');
    return new OAuthError('server_error', 'Internal server error', 500);
  }
}
