import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy, type StrategyOptionsWithRequest } from 'passport-jwt';
import { clientAddressOf } from '../delivery/audit/audit-origin.js';
import { JWT_ALGORITHM, SigningKeysService } from '../base/keys/signing-keys.service.js';
import type { TokenKind } from '../base/model/token.entity.js';
import { type JwtClaims, TokensService } from '../credentials/tokens/tokens.service.js';
import type { AuthContext } from '../base/common/auth/auth-context.js';
import { AuthErrors } from '../base/common/auth/auth.errors.js';
import { type Carrier, extractCredential } from '../base/common/auth/credentials.js';
import { Clock } from '../base/common/clock.js';
import { hasServiceClaims, kidOf } from './token-verifier.js';

/**
 * The verification keys could not be loaded (the database down): passport-jwt reports it as a failure like
 * any verdict on the token, so the key provider hands it on wrapped, and the Authenticator throws `reason` on.
 */
export class VerificationKeysUnavailable extends Error {
  constructor(readonly reason: unknown) {
    super('the verification keys could not be loaded');
  }
}

/** The one passport strategy's name: every credential source is read by its extractor. */
export const JWT_STRATEGY = 'jwt';

/** Which token kinds each carrier accepts: the temporary sign-in token (TEMP) only in its own two. */
const ACCEPTS: Record<Carrier, (kind: TokenKind) => boolean> = {
  authorization: (kind) => kind !== 'TEMP',
  'auth-token': (kind) => kind !== 'TEMP',
  'temp-auth-token': (kind) => kind === 'TEMP',
  'session-cookie': (kind) => kind === 'LOGIN',
  'pending-cookie': (kind) => kind === 'TEMP',
};

/**
 * The one credential strategy (passport-jwt), for the guard and the consent pages alike (the Authenticator
 * runs it): its extractor (credentials.ts) reads the source the request is asked for, the key is chosen by
 * `kid` among the service's live keys, passport-jwt verifies the signature with jsonwebtoken (ES256 only),
 * `validate` checks the expiry against the service's Clock (as every other expiry decision, so tests move
 * time instead of waiting), and the token's record is looked up, so a revoked token fails on its very next use. The carrier decides two things: a temporary
 * sign-in token (TEMP) is accepted only from `Temp-Auth-Token` and the pending cookie, which carry nothing
 * else, the session cookie only a login token; and the App-ID header, when Auth-Token or Temp-Auth-Token
 * carried the token, must name the token's app. Which kinds a route accepts is the route's own `kinds`.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, JWT_STRATEGY) {
  constructor(
    keys: SigningKeysService,
    private readonly tokens: TokensService,
    private readonly clock: Clock,
  ) {
    super({
      jwtFromRequest: extractCredential,
      algorithms: [JWT_ALGORITHM],
      // jsonwebtoken would judge the expiry by the wall clock; validate() judges it by the service's Clock,
      // before the token's record is looked up
      ignoreExpiration: true,
      passReqToCallback: true,
      secretOrKeyProvider: (_req: Request, rawJwt: string, done: (err: unknown, key?: unknown) => void) => {
        const kid = kidOf(rawJwt);
        if (!kid) return done(null, undefined);
        // a failure to load the keys (the database down) reaches the Authenticator as passport-jwt's `fail`,
        // like a verdict on the token, which it is not: marked, so that it is thrown on there
        keys.verificationKey(kid).then(
          (key) => done(null, key ?? undefined),
          (err) => done(new VerificationKeysUnavailable(err)),
        );
      },
    } as StrategyOptionsWithRequest);
  }

  async validate(req: Request, claims: JwtClaims): Promise<AuthContext> {
    const { carrier, token } = req.credential!;
    if (!hasServiceClaims(claims)) throw AuthErrors.INVALID_TOKEN();
    if (claims.exp * 1000 <= this.clock.now().getTime()) throw AuthErrors.TOKEN_EXPIRED();
    if (carrier === 'auth-token' || carrier === 'temp-auth-token') {
      const appId = req.headers['app-id'];
      const named = (Array.isArray(appId) ? appId[0] : appId)?.trim();
      if (named && named !== claims.app_id) throw AuthErrors.APP_ID_MISMATCH();
    }
    // the request logger, the first middleware, gives every request its id
    const auth = await this.tokens.authenticate(claims, token!, req.id as string);
    if (!ACCEPTS[carrier](auth.kind)) throw AuthErrors.KIND_NOT_ACCEPTED();
    auth.clientAddress = clientAddressOf(req);
    return auth;
  }
}
