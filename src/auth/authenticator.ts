import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import passport from 'passport';
import { ApiError } from '../base/common/errors/api-error.js';
import type { AuthContext } from '../base/common/auth/auth-context.js';
import { AuthErrors } from '../base/common/auth/auth.errors.js';
import type { CredentialSource } from '../base/common/auth/credentials.js';
import { JWT_STRATEGY, JwtStrategy, VerificationKeysUnavailable } from './jwt.strategy.js';

const NO_SESSION = { session: false } as const;

/**
 * The one authenticator: runs the one credential strategy (jwt.strategy.ts, passport-jwt) through passport
 * on a request, for the guard (its first step) and for the consent pages alike; the source it reads is the
 * request's `credentialSource` (credentials.ts):
 *
 * - `headers`: the API's headers, for the guard (Authorization, else Auth-Token, else Temp-Auth-Token).
 *   Which token *kinds* a route accepts is the route's declared `kinds` (guard/credential-kind.step.ts).
 * - `consent-session`, `consent-pending`: the consent pages' cookies (oauth/consent/consent-session.service.ts).
 * - SAML sign-in goes here next: today the ACS (identity-providers/saml.controller.ts) verifies the
 *   assertion and hands the browser a single-use code, which the consent page exchanges for a login token
 *   (SsoLoginService.exchange) and keeps as its `consent-session` cookie.
 *
 * A credential that fails is a verdict (401, or null on the pages); a failure that is no verdict on the
 * credential, the database down above all, is thrown as it is, so every surface answers it as an outage
 * (503) and never as "not signed in".
 */
@Injectable()
export class Authenticator {
  /**
   * passport, with the one strategy: an instance of this Authenticator's own, as @nestjs/passport also
   * registers every strategy on passport's process-wide instance, which the last application built in a
   * process would own (tests build several).
   */
  private readonly passport = new passport.Authenticator();

  constructor(strategy: JwtStrategy) {
    this.passport.use(JWT_STRATEGY, strategy);
  }

  /**
   * The API caller, from the header source the request presents (Authorization, else Auth-Token, else
   * Temp-Auth-Token): its context, or the AuthError of a 401.
   */
  fromHeaders(req: Request): Promise<AuthContext> {
    return this.authenticate('headers', req);
  }

  /** A consent page's cookie: its context, or null (absent, invalid, revoked, another kind). */
  fromCookie(source: 'consent-session' | 'consent-pending', req: Request): Promise<AuthContext | null> {
    return this.authenticate(source, req).catch((e: unknown) => {
      // a refused token (absent, revoked, expired, another kind, a member no more) is "not signed in";
      // anything else, the database down above all, is thrown on: the consent pages answer it with their
      // 503 page
      if (e instanceof ApiError && e.status === 401) return null;
      throw e;
    });
  }

  /**
   * passport runs the strategy on the source named (no session): the caller, or the AuthError of a 401; an
   * error that is no verdict on the credential is thrown as it is.
   */
  private authenticate(source: CredentialSource, req: Request): Promise<AuthContext> {
    req.credentialSource = source;
    return new Promise((resolve, reject) => {
      this.passport.authenticate(
        JWT_STRATEGY,
        NO_SESSION,
        // the lookup's refusal (an AuthError) or failure is passport's `err`; jsonwebtoken's is the `info`
        (err: unknown, user: AuthContext | false, info: unknown) =>
          err ? reject(err as Error) : user ? resolve(user) : reject(failureOf(req, info)),
      )(req, req.res as Response, (err?: unknown) =>
        // passport calls next only for a strategy that passes without a verdict, or one not registered
        reject((err as Error | undefined) ?? new Error('passport: no verdict')),
      );
    });
  }
}

/**
 * Why passport-jwt failed a request: no credential (its extractor found none), the verification keys not
 * loaded (no verdict on the token: the cause is thrown on, a 503 when the database is down), or else
 * jsonwebtoken's verdict on the token, the 401 of an invalid token: a bad signature, an unknown key, an `alg`
 * other than ES256, a malformed token, and a signature of the wrong length, which its ECDSA decoder reports as
 * a TypeError rather than a JsonWebTokenError. jsonwebtoken never judges the expiry here (the strategy sets
 * `ignoreExpiration`; its validate refuses an expired token against the service's Clock).
 */
function failureOf(req: Request, info: unknown): unknown {
  if (req.credential?.token == null) return AuthErrors.NO_CREDENTIALS();
  if (info instanceof VerificationKeysUnavailable) return info.reason;
  return AuthErrors.INVALID_TOKEN();
}
