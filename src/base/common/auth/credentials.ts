import { parseCookie } from 'cookie';
import type { Request } from 'express';

/** The consent page's session: an HttpOnly cookie holding a login token (oauth/consent/consent-session.service.ts). */
export const SESSION_COOKIE = 'portcullis_session';
/** A password-verified sign-in on the consent page that still owes a second factor: the temporary token. */
export const PENDING_COOKIE = 'portcullis_pending';

/**
 * Where the Authenticator asks the JWT strategy's extractor to read a credential: the API's headers (the
 * guard), or one of the consent pages' cookies.
 */
export type CredentialSource = 'headers' | 'consent-session' | 'consent-pending';

/** The one header or cookie a credential was read from. */
export type Carrier =
  'authorization' | 'auth-token' | 'temp-auth-token' | 'session-cookie' | 'pending-cookie';

/** What a request presents from one source: the carrier read, and its token (null: no credential). */
export interface Presented {
  carrier: Carrier;
  token: string | null;
}

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the Authenticator before it runs the JWT strategy: the source its extractor reads. */
    credentialSource?: CredentialSource;
    /** Set by the extractor: what the request presented from that source. */
    credential?: Presented;
  }
}

const nonEmpty = (v: string | string[] | undefined): string | null => {
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.trim() !== '' ? s.trim() : null;
};

/** The Authorization header unless it is empty or a bare `Bearer` with no value (both count as absent). */
export function presentAuthorization(req: Request): string | null {
  const authorization = nonEmpty(req.headers.authorization);
  return authorization && !/^Bearer$/i.test(authorization) ? authorization : null;
}

const BEARER = /^Bearer\s+(\S+)$/i;

/**
 * The header credential, by precedence: `Authorization` (its token when it is `Bearer <jwt>`, else none),
 * else `Auth-Token` (the published platform's pair, with `App-ID`), else `Temp-Auth-Token` (the temporary
 * sign-in token). Empty headers count as absent; a present header that fails never falls back to the next.
 */
export function headerCredential(req: Request): Presented {
  const authorization = presentAuthorization(req);
  if (authorization) return { carrier: 'authorization', token: BEARER.exec(authorization)?.[1] ?? null };
  const authToken = nonEmpty(req.headers['auth-token']);
  if (authToken) return { carrier: 'auth-token', token: authToken };
  const temp = nonEmpty(req.headers['temp-auth-token']);
  return temp ? { carrier: 'temp-auth-token', token: temp } : { carrier: 'authorization', token: null };
}

/** One cookie of the request (the `cookie` package parses the header), or null when absent or empty. */
export function cookieOf(req: Request, name: string): string | null {
  const header = req.headers.cookie;
  return (header && parseCookie(header)[name]) || null;
}

/** What the request presents from one source. */
export function presented(req: Request, source: CredentialSource): Presented {
  switch (source) {
    case 'headers':
      return headerCredential(req);
    case 'consent-session':
      return { carrier: 'session-cookie', token: cookieOf(req, SESSION_COOKIE) };
    case 'consent-pending':
      return { carrier: 'pending-cookie', token: cookieOf(req, PENDING_COOKIE) };
  }
}

/**
 * The JWT strategy's `jwtFromRequest`: reads the source the Authenticator named on the request (the headers
 * when none), and leaves what it found on the request for the strategy's lookup and the Authenticator's
 * verdict (no token is "no credentials", told apart from a failed token without reading passport's message).
 */
export function extractCredential(req: Request): string | null {
  return (req.credential = presented(req, req.credentialSource ?? 'headers')).token;
}
