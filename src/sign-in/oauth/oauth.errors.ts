import { RETRY_AFTER_SECONDS } from '../../base/common/errors/unavailable.js';
/** One class per RFC 6749 error: `status` is the HTTP status, `headers` what must go with it. */
export class OAuthError extends Error {
  constructor(
    public readonly error: string,
    public readonly description: string,
    public readonly status = 400,
    public readonly headers: Record<string, string> = {},
  ) {
    super(`${error}: ${description}`);
  }
}

export const invalidRequest = (d: string) => new OAuthError('invalid_request', d);
/** 401 with a challenge, as RFC 6749 §5.2 asks when the client tried HTTP authentication (harmless otherwise). */
export const invalidClient = (d = 'Client authentication failed') =>
  new OAuthError('invalid_client', d, 401, {
    'WWW-Authenticate': 'Basic realm="portcullis", charset="UTF-8"',
  });
export const invalidGrant = (d: string) => new OAuthError('invalid_grant', d);
/** The description always ends with the scopes that may be asked for (the spec: it lists the allowed scopes). */
export const invalidScope = (
  allowed: string[],
  lead = "The requested scope is unknown or outside the application's allowed scopes",
) => new OAuthError('invalid_scope', `${lead}: ${allowed.length ? allowed.join(' ') : '(none)'}`);
export const unauthorizedClient = (d = 'Service-account (PAT) applications cannot use OAuth endpoints') =>
  new OAuthError('unauthorized_client', d);
export const unsupportedGrantType = (d: string) => new OAuthError('unsupported_grant_type', d);
export const temporarilyUnavailable = () =>
  new OAuthError('temporarily_unavailable', 'The service is temporarily unavailable; retry shortly', 503, {
    'Retry-After': String(RETRY_AFTER_SECONDS),
  });
