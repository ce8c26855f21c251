import { type ArgumentsHost, Catch, type ExceptionFilter, Logger, Optional } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  answerAfterCharge,
  errorText,
  toApiError,
} from '../../../base/common/filters/api-exception.filter.js';
import { RateLimiter } from '../../../base/common/rate-limit/rate-limiter.js';

/** A quoted-string of RFC 7235 (a description carries no quote or backslash). */
const quoted = (v: string) => `"${v.replace(/["\\]/g, "'")}"`;

/**
 * The userinfo endpoint's refusals, as RFC 6750 §3 says a protected resource answers them: the spec's error
 * body, plus `WWW-Authenticate: Bearer …` on a 401 (no token: the scheme alone; a bad, expired or revoked one:
 * `error="invalid_token"`) and on the 403 of a token without `openid` (`error="insufficient_scope"`).
 */
@Catch()
export class UserinfoExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Userinfo');

  constructor(@Optional() private readonly limiter?: RateLimiter) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    const err = toApiError(exception, req, this.logger);
    answerAfterCharge(this.limiter, req, res, () => {
      for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
      if (err.code) res.setHeader('X-Error-Code', err.code);
      const challenge = this.challenge(req, err.status, err.code, errorText(err));
      if (challenge) res.setHeader('WWW-Authenticate', challenge);
      res.setHeader('Cache-Control', 'no-store');
      res.status(err.status).json({ errors: err.errors });
    });
  }

  private challenge(req: Request, status: number, code: string | undefined, text: string): string | null {
    const realm = 'Bearer realm="portcullis"';
    if (status === 401) {
      const presented = req.headers.authorization !== undefined;
      return presented ? `${realm}, error="invalid_token", error_description=${quoted(text)}` : realm;
    }
    if (status === 403 && (code === 'auth.MISSING_SCOPE' || code === 'auth.USER_IMPERSONATION_REQUIRED')) {
      return `${realm}, error="insufficient_scope", scope="openid"`;
    }
    return null;
  }
}
