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
function presentAuthorization(req: Request): string | null {
  const authorization = nonEmpty(req.headers.authorization);
  return authorization && !/^Bearer$/i.test(authorization) ? authorization : null;
}

/**
 * `Authorization: Bearer <jwt>`, else the legacy `Auth-Token` header, else `Temp-Auth-Token` (the temporary
 * sign-in token); empty headers count as absent.
 */
export function extractToken(req: Request): string | null {
  const authorization = presentAuthorization(req);
  if (authorization) {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization);
    return m ? m[1] : null;
  }
  return nonEmpty(req.headers['auth-token']) ?? nonEmpty(req.headers['temp-auth-token']);
}

/** Whether the credential came in `Temp-Auth-Token` (no Authorization nor Auth-Token header). */
function fromTempHeader(req: Request): boolean {
  return (
    !presentAuthorization(req) &&
    !nonEmpty(req.headers['auth-token']) &&
    !!nonEmpty(req.headers['temp-auth-token'])
  );
}

/**
 * passport-jwt extracts the token and picks the key by `kid`; the one TokenVerifier checks signature (ES256
 * only), expiry and shape, installed through passport-jwt's documented hook `Strategy.JwtVerifier`;
 * `validate` then looks the token up, so a revoked token fails on its very next use.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    keys: SigningKeysService,
    private readonly tokens: TokensService,
    verifier: TokenVerifier,
  ) {
    super({
      jwtFromRequest: extractToken,
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
    } as StrategyOptionsWithRequest);
    const hook: PassportJwtVerifier = (token, key, _options, done) => {
      try {
        done(null, verifier.verifyWith(token, key as KeyObject));
      } catch (e) {
        done(e as Error);
      }
    };
    (Strategy as unknown as { JwtVerifier: PassportJwtVerifier }).JwtVerifier = hook;
  }

  async validate(req: Request, claims: JwtClaims): Promise<AuthContext> {
    if (typeof claims.id !== 'string' || typeof claims.app_id !== 'string') throw AuthErrors.INVALID_TOKEN();
    const appIdHeader = nonEmpty(req.headers['app-id']);
    if (!presentAuthorization(req) && appIdHeader && appIdHeader !== claims.app_id) {
      throw AuthErrors.APP_ID_MISMATCH();
    }
    // the request logger, the first middleware, gives every request its id
    const auth = await this.tokens.authenticate(claims, extractToken(req) as string, req.id as string);
    // a temporary sign-in token only in Temp-Auth-Token, and that header carries nothing else: a TEMP token
    // sent as Bearer is refused even where a route names TEMP, and a login token cannot pose as one
    if ((auth.kind === 'TEMP') !== fromTempHeader(req)) throw AuthErrors.KIND_NOT_ACCEPTED();
    auth.clientAddress = clientAddressOf(req);
    return auth;
  }
}
