import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy, type StrategyOptionsWithRequest } from 'passport-jwt';
import { JWT_ALGORITHM, SigningKeysService } from '../../keys/signing-keys.service.js';
import { type JwtClaims, TokensService } from '../../tokens/tokens.service.js';
import { ApiError } from '../errors/api-error.js';
import type { AuthContext } from './auth-context.js';
import { installVerificationCache } from './verification-cache.js';

installVerificationCache();

const nonEmpty = (v: string | string[] | undefined): string | null => {
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.trim() !== '' ? s.trim() : null;
};

/** The Authorization header unless it is empty or a bare `Bearer` with no value (both count as absent). */
function presentAuthorization(req: Request): string | null {
  const authorization = nonEmpty(req.headers.authorization);
  return authorization && !/^Bearer$/i.test(authorization) ? authorization : null;
}

/** `Authorization: Bearer <jwt>`, else the legacy `Auth-Token` header; empty headers count as absent. */
export function extractToken(req: Request): string | null {
  const authorization = presentAuthorization(req);
  if (authorization) {
    const m = /^Bearer\s+(\S+)$/i.exec(authorization);
    return m ? m[1] : null;
  }
  return nonEmpty(req.headers['auth-token']);
}

function kidOf(rawJwt: string): string | null {
  try {
    const header = JSON.parse(Buffer.from(rawJwt.split('.')[0], 'base64url').toString('utf8')) as {
      kid?: unknown;
    };
    return typeof header.kid === 'string' ? header.kid : null;
  } catch {
    return null;
  }
}

/**
 * passport-jwt verifies the signature (ES256 only: `alg: none` and HS256 confusion are refused), expiry and
 * shape; `validate` then looks the token up, so a revoked token fails on its very next use.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    keys: SigningKeysService,
    private readonly tokens: TokensService,
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
  }

  async validate(req: Request, claims: JwtClaims): Promise<AuthContext> {
    if (typeof claims.id !== 'string' || typeof claims.app_id !== 'string')
      throw ApiError.unauthorized('Invalid token');
    const appIdHeader = nonEmpty(req.headers['app-id']);
    if (!presentAuthorization(req) && appIdHeader && appIdHeader !== claims.app_id) {
      throw ApiError.unauthorized('App-ID does not match the token');
    }
    return this.tokens.authenticate(claims, extractToken(req) as string);
  }
}
