import { Catch } from '@nestjs/common';
import type { Request } from 'express';
import type { ApiError } from '../../../base/common/errors/api-error.js';
import { ApiExceptionFilter, errorText } from '../../../base/common/filters/api-exception.filter.js';

/** A quoted-string of RFC 7235 (a description carries no quote or backslash). */
const quoted = (v: string) => `"${v.replace(/["\\]/g, "'")}"`;

/**
 * The userinfo endpoint's refusals, as RFC 6750 §3 says a protected resource answers them: the spec's error
 * answer (ApiExceptionFilter), never cached, plus `WWW-Authenticate: Bearer …` on a 401 (no token: the
 * scheme alone; a bad, expired or revoked one: `error="invalid_token"`) and on the 403 of a token without
 * `openid` (`error="insufficient_scope"`).
 */
@Catch()
export class UserinfoExceptionFilter extends ApiExceptionFilter {
  protected override headersFor(req: Request, err: ApiError): Record<string, string> {
    const challenge = this.challenge(req, err);
    return { 'Cache-Control': 'no-store', ...(challenge ? { 'WWW-Authenticate': challenge } : {}) };
  }

  private challenge(req: Request, err: ApiError): string | null {
    const realm = 'Bearer realm="portcullis"';
    if (err.status === 401) {
      const presented = req.headers.authorization !== undefined;
      return presented
        ? `${realm}, error="invalid_token", error_description=${quoted(errorText(err))}`
        : realm;
    }
    if (
      err.status === 403 &&
      (err.code === 'auth.MISSING_SCOPE' || err.code === 'auth.USER_IMPERSONATION_REQUIRED')
    ) {
      return `${realm}, error="insufficient_scope", scope="openid"`;
    }
    return null;
  }
}
