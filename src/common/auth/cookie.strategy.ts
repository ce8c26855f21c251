import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import passport from 'passport';
import type { TokenKind } from '../../tokens/token.entity.js';
import { TokensService } from '../../tokens/tokens.service.js';
import type { AuthContext } from './auth-context.js';
import { TokenVerifier } from './token-verifier.js';

/** The consent page's session: an HttpOnly cookie holding a login token (oauth/consent/consent-session.service.ts). */
export const SESSION_COOKIE = 'portcullis_session';
/** A password-verified sign-in on the consent page that still owes a second factor: the temporary token. */
export const PENDING_COOKIE = 'portcullis_pending';

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

type Verify = (
  req: Request,
  raw: string,
  done: (err: unknown, user?: AuthContext | false, info?: unknown) => void,
) => void;

/**
 * A passport strategy for a token held in a cookie: absent is `fail` (no credentials), the verify
 * callback decides the rest (`success`, `fail`, or `error` for a failure that is no verdict on the token).
 */
class CookieTokenStrategy extends passport.Strategy {
  constructor(
    private readonly cookie: string,
    private readonly verify: Verify,
  ) {
    super();
  }

  override authenticate(req: Request): void {
    const raw = readCookie(req, this.cookie);
    if (!raw) return this.fail({ message: 'No auth token' }, 401);
    this.verify(req, raw, (err, user, info) => {
      if (err) return this.error(err as Error);
      if (!user) return this.fail(info ?? { message: 'Invalid token' }, 401);
      this.success(user);
    });
  }
}

/** The cookie's token verified and looked up like any other token; only a token of `kind` passes. */
async function fromCookie(
  verifier: TokenVerifier,
  tokens: TokensService,
  req: Request,
  raw: string,
  kind: TokenKind,
): Promise<AuthContext | false> {
  // verifyOrNull throws only for an outage (the key could not be loaded): no verdict on the token
  const claims = await verifier.verifyOrNull(raw);
  if (!claims || typeof claims.id !== 'string' || typeof claims.app_id !== 'string') return false;
  try {
    const auth = await tokens.authenticate(claims, raw, req.id as string);
    return auth.kind === kind ? auth : false;
  } catch (e) {
    // a refused token (revoked, expired, a member no more) is "not signed in"; anything else, the
    // database down above all, is thrown on: the consent pages answer it with their 503 page
    if ((e as { status?: number }).status === 401) return false;
    throw e;
  }
}

/** Credential source `consent-session`: the consent pages' session cookie (a login token, kind LOGIN). */
@Injectable()
export class ConsentSessionStrategy extends PassportStrategy(CookieTokenStrategy, 'consent-session') {
  constructor(
    private readonly verifier: TokenVerifier,
    private readonly tokens: TokensService,
  ) {
    super(SESSION_COOKIE);
  }

  validate(req: Request, raw: string): Promise<AuthContext | false> {
    return fromCookie(this.verifier, this.tokens, req, raw, 'LOGIN');
  }
}

/** Credential source `consent-pending`: the consent pages' pending sign-in (a temporary token, kind TEMP). */
@Injectable()
export class ConsentPendingStrategy extends PassportStrategy(CookieTokenStrategy, 'consent-pending') {
  constructor(
    private readonly verifier: TokenVerifier,
    private readonly tokens: TokensService,
  ) {
    super(PENDING_COOKIE);
  }

  validate(req: Request, raw: string): Promise<AuthContext | false> {
    return fromCookie(this.verifier, this.tokens, req, raw, 'TEMP');
  }
}
