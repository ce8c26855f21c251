import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type passport from 'passport';
import type { AuthContext } from './auth-context.js';
import { AuthErrors } from './auth.errors.js';
import { ConsentPendingStrategy, ConsentSessionStrategy } from './cookie.strategy.js';
import { AppTokenStrategy, BearerStrategy, headerSource, TempTokenStrategy } from './jwt.strategy.js';

/**
 * Where a credential comes from. Each source is a passport strategy; the Authenticator runs them.
 *
 * - `bearer`, `app-token`, `temp-token` (jwt.strategy.ts): the API's headers, for the guard. Which token
 *   *kinds* a route accepts is the route's declared `kinds` (guard/credential-kind.step.ts), not the source.
 * - `consent-session`, `consent-pending` (cookie.strategy.ts): the consent pages' cookies
 *   (oauth/consent/consent-session.service.ts).
 * - SAML sign-in goes here next: today the ACS (identity-providers/saml.controller.ts) verifies the
 *   assertion and hands the browser a single-use code, which the consent page exchanges for a login token
 *   (SsoLoginService.exchange) and keeps as its `consent-session` cookie. A SAML strategy (an assertion or
 *   that code as the credential) is a new source in this list, run through `authenticate()` like the others.
 */
export type CredentialSource = 'bearer' | 'app-token' | 'temp-token' | 'consent-session' | 'consent-pending';

/** A strategy run as passport runs it: its own authenticate, and the verdict callbacks passport sets. */
interface StrategyRun {
  authenticate(req: Request, options: { session: false }): void;
  success: (user: AuthContext, info?: Outcome['info']) => void;
  fail: (challenge?: string | Outcome['info'], status?: number) => void;
  error: (err: unknown) => void;
  pass: () => void;
  redirect: (url: string, status?: number) => void;
}

interface Outcome {
  user: AuthContext | false;
  info: { name?: string; message?: string } | undefined;
}

/**
 * The one authenticator: runs a credential source's passport strategy on a request, for the guard (its first
 * step) and for the consent pages alike. A credential that fails is a verdict (401, or null on the pages); a
 * failure that is no verdict on the credential, the database down above all, is thrown as it is, so every
 * surface answers it as an outage (503) and never as "not signed in".
 */
@Injectable()
export class Authenticator {
  private readonly strategies: Record<CredentialSource, passport.Strategy>;

  constructor(
    bearer: BearerStrategy,
    appToken: AppTokenStrategy,
    tempToken: TempTokenStrategy,
    session: ConsentSessionStrategy,
    pending: ConsentPendingStrategy,
  ) {
    this.strategies = {
      bearer,
      'app-token': appToken,
      'temp-token': tempToken,
      'consent-session': session,
      'consent-pending': pending,
    };
  }

  /**
   * The API caller, from the header source the request presents (Authorization, else Auth-Token, else
   * Temp-Auth-Token): its context, or the AuthError of a 401.
   */
  async fromHeaders(req: Request): Promise<AuthContext> {
    const { user, info } = await this.authenticate(headerSource(req), req);
    if (user) return user;
    if (info?.name === 'TokenExpiredError') throw AuthErrors.TOKEN_EXPIRED();
    if (info?.message === 'No auth token') throw AuthErrors.NO_CREDENTIALS();
    throw AuthErrors.INVALID_TOKEN();
  }

  /** A consent page's cookie: its context, or null (absent, invalid, revoked, another kind). */
  async fromCookie(source: 'consent-session' | 'consent-pending', req: Request): Promise<AuthContext | null> {
    return (await this.authenticate(source, req)).user || null;
  }

  /**
   * Runs one source's passport strategy for one request (no session): its verdict, or its error. What
   * passport.authenticate() does for a single strategy with a callback, without building its middleware
   * (a dozen closures and the req.login helpers) on every request: the strategy's own `authenticate` is
   * called on an object of this request's, whose success/fail/error/pass/redirect settle the answer.
   */
  authenticate(source: CredentialSource, req: Request): Promise<Outcome> {
    return new Promise((resolve, reject) => {
      // the strategy is shared: handed it, concurrent requests would answer each other; each run gets an
      // object of its own whose prototype is the strategy (what passport does for a strategy given by name)
      const run = Object.create(this.strategies[source]) as StrategyRun;
      run.success = (user, info) => resolve({ user, info });
      // as passport's callback: the first (only) strategy's challenge is the info
      run.fail = (challenge) =>
        resolve({ user: false, info: typeof challenge === 'string' ? { message: challenge } : challenge });
      run.error = (err) => reject(err as Error);
      run.pass = () => reject(new Error('passport: no verdict'));
      run.redirect = () => reject(new Error('passport: a credential source may not redirect'));
      run.authenticate(req, { session: false });
    });
  }
}
