import { Injectable } from '@nestjs/common';
import { AuthErrors } from './auth.errors.js';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import type { KeyObject } from 'node:crypto';
import { Strategy, type StrategyOptionsWithRequest } from 'passport-jwt';
import { JWT_ALGORITHM, SigningKeysService } from '../../keys/signing-keys.service.js';
import { type JwtClaims, TokensService } from '../../tokens/tokens.service.js';
import { clientAddressOf } from '../../audit/audit-origin.js';
import type { AuthContext } from './auth-context.js';
import { kidOf, TokenVerifier } from './token-verifier.js';

type PassportJwtVerifier = (
  token: string,
  key: unknown,
  options: unknown,
  done: (err: Error | null, claims?: unknown) => void,
) => void;

const nonEmpty = (v: string | string[] | undefined): string | null => {
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.trim() !== '' ? s.trim() : null;
};

/** The Authorization header unless it is empty or a bare `Bearer` with no value (both count as absent). */
export function presentAuthorization(req: Request): string | null {
  const authorization = nonEmpty(req.headers.authorization);
  return authorization && !/^Bearer$/i.test(authorization) ? authorization : null;
}

/** `Authorization: Bearer <jwt>`; null when the header is absent or not of that form. */
function bearerToken(req: Request): string | null {
  const m = /^Bearer\s+(\S+)$/i.exec(presentAuthorization(req) ?? '');
  return m ? m[1] : null;
}
const authTokenHeader = (req: Request) => nonEmpty(req.headers['auth-token']);
const tempTokenHeader = (req: Request) => nonEmpty(req.headers['temp-auth-token']);

/** Which header source a request presents, by precedence: Authorization, else Auth-Token, else Temp-Auth-Token. */
export function headerSource(req: Request): 'bearer' | 'app-token' | 'temp-token' {
  if (presentAuthorization(req)) return 'bearer';
  if (authTokenHeader(req)) return 'app-token';
  return tempTokenHeader(req) ? 'temp-token' : 'bearer';
}

/**
 * `Authorization: Bearer <jwt>`, else the legacy `Auth-Token` header, else `Temp-Auth-Token` (the temporary
 * sign-in token); empty headers count as absent.
 */
export function extractToken(req: Request): string | null {
  const source = headerSource(req);
  return source === 'bearer'
    ? bearerToken(req)
    : source === 'app-token'
      ? authTokenHeader(req)
      : tempTokenHeader(req);
}

let verifierInstalled: TokenVerifier | null = null;

/** passport-jwt's options for one header: the key by `kid`, the one TokenVerifier as its verifier. */
function jwtOptions(
  keys: SigningKeysService,
  verifier: TokenVerifier,
  jwtFromRequest: (req: Request) => string | null,
): StrategyOptionsWithRequest {
  // passport-jwt's documented hook `Strategy.JwtVerifier` is process-wide: installed once per verifier
  if (verifierInstalled !== verifier) {
    const hook: PassportJwtVerifier = (token, key, _options, done) => {
      try {
        done(null, verifier.verifyWith(token, key as KeyObject));
      } catch (e) {
        done(e as Error);
      }
    };
    (Strategy as unknown as { JwtVerifier: PassportJwtVerifier }).JwtVerifier = hook;
    verifierInstalled = verifier;
  }
  return {
    jwtFromRequest,
    algorithms: [JWT_ALGORITHM],
    passReqToCallback: true,
    secretOrKeyProvider: (
      _req: Request,
      rawJwt: string,
      done: (err: unknown, key?: string | Buffer) => void,
    ) => {
      const kid = kidOf(rawJwt);
      if (!kid) return done(null, undefined);
      keys.verificationKey(kid).then(
        // jsonwebtoken accepts a KeyObject although the typings say string | Buffer
        (key) => done(null, (key ?? undefined) as unknown as Buffer | undefined),
        (err) => done(err),
      );
    },
  } as StrategyOptionsWithRequest;
}

/**
 * The token's record looked up (so a revoked token fails on its very next use). The App-ID header, when a
 * header other than Authorization carried the token, must name the token's app; a temporary sign-in token
 * (TEMP) is accepted only from `Temp-Auth-Token`, and that header carries nothing else.
 */
async function lookUp(
  tokens: TokensService,
  req: Request,
  claims: JwtClaims,
  raw: string | null,
  temp: boolean,
): Promise<AuthContext> {
  if (typeof claims.id !== 'string' || typeof claims.app_id !== 'string') throw AuthErrors.INVALID_TOKEN();
  const appIdHeader = nonEmpty(req.headers['app-id']);
  if (!presentAuthorization(req) && appIdHeader && appIdHeader !== claims.app_id) {
    throw AuthErrors.APP_ID_MISMATCH();
  }
  // the request logger, the first middleware, gives every request its id
  const auth = await tokens.authenticate(claims, raw as string, req.id as string);
  if ((auth.kind === 'TEMP') !== temp) throw AuthErrors.KIND_NOT_ACCEPTED();
  auth.clientAddress = clientAddressOf(req);
  return auth;
}

/** Credential source `bearer`: `Authorization: Bearer <jwt>` (login, PAT and OAuth tokens). */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(
    keys: SigningKeysService,
    private readonly tokens: TokensService,
    verifier: TokenVerifier,
  ) {
    super(jwtOptions(keys, verifier, bearerToken));
  }

  validate(req: Request, claims: JwtClaims): Promise<AuthContext> {
    return lookUp(this.tokens, req, claims, bearerToken(req), false);
  }
}

/** Credential source `app-token`: the published platform's `App-ID` + `Auth-Token` pair. */
@Injectable()
export class AppTokenStrategy extends PassportStrategy(Strategy, 'app-token') {
  constructor(
    keys: SigningKeysService,
    private readonly tokens: TokensService,
    verifier: TokenVerifier,
  ) {
    super(jwtOptions(keys, verifier, authTokenHeader));
  }

  validate(req: Request, claims: JwtClaims): Promise<AuthContext> {
    return lookUp(this.tokens, req, claims, authTokenHeader(req), false);
  }
}

/** Credential source `temp-token`: `Temp-Auth-Token`, the temporary sign-in token while a second factor is owed. */
@Injectable()
export class TempTokenStrategy extends PassportStrategy(Strategy, 'temp-token') {
  constructor(
    keys: SigningKeysService,
    private readonly tokens: TokensService,
    verifier: TokenVerifier,
  ) {
    super(jwtOptions(keys, verifier, tempTokenHeader));
  }

  validate(req: Request, claims: JwtClaims): Promise<AuthContext> {
    return lookUp(this.tokens, req, claims, tempTokenHeader(req), true);
  }
}
