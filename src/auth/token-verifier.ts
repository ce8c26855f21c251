import { isUnavailable } from '../base/common/errors/unavailable.js';
import { Injectable } from '@nestjs/common';
import { createHash, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { JWT_ALGORITHM, SigningKeysService } from '../base/keys/signing-keys.service.js';
import type { JwtClaims } from '../credentials/tokens/tokens.service.js';
import { Clock } from '../base/common/clock.js';

const MAX_ENTRIES = 10_000;

/** A token that failed verification; `name` is jsonwebtoken's (TokenExpiredError, JsonWebTokenError, …). */
export class TokenVerificationError extends Error {
  constructor(message: string, name: string) {
    super(message);
    this.name = name;
  }
}

/**
 * The verifier of the service's JWTs outside the request guard: ES256 only (so `alg: none` and key confusion
 * fail), the key chosen by the `kid` header among the service's keys, through jsonwebtoken (passport-jwt's
 * library). Introspection and revocation (the token endpoint) use it; the guard and the consent pages verify
 * through passport-jwt itself (jwt.strategy.ts), with the same algorithm, key choice and library.
 *
 * ECDSA verification is the largest cost of a verification, and whether a token's signature is
 * valid under a given key never changes, so successful verifications are remembered, keyed by the SHA-256 of
 * the whole token and by the key object. Safe by construction: a different token (even one bit) has a
 * different hash; a retired key is refused by the key lookup before verification, and a rotated-in key is
 * another object, so entries never outlive their key; expiry is checked again on every hit; and the token
 * record is still looked up on every request.
 */
@Injectable()
export class TokenVerifier {
  private readonly verified = new Map<string, { key: KeyObject; claims: JwtClaims }>();

  constructor(
    private readonly keys: SigningKeysService,
    private readonly clock: Clock,
  ) {}

  /** The claims of a token signed by one of the service's live keys, or a TokenVerificationError. */
  async verify(token: string): Promise<JwtClaims> {
    const kid = kidOf(token);
    const key = kid ? await this.keys.verificationKey(kid) : null;
    if (!key) throw new TokenVerificationError('Unknown signing key', 'JsonWebTokenError');
    return this.verifyWith(token, key);
  }

  /**
   * As verify(), with null for any failure of the token (callers that only need "valid or not"); the
   * database down while the key is loaded is no verdict on the token and is thrown (a 503 upstream).
   */
  async verifyOrNull(token: string): Promise<JwtClaims | null> {
    return this.verify(token).catch((e: unknown) => {
      if (isUnavailable(e)) throw e;
      return null;
    });
  }

  /** Verification under a key already chosen (passport-jwt's key provider chose it). */
  verifyWith(token: string, key: KeyObject): JwtClaims {
    const id = createHash('sha256').update(token).digest('base64url');
    const hit = this.verified.get(id);
    // the service's Clock, as every other expiry decision (tests move it instead of waiting)
    const now = this.clock.now().getTime();
    if (hit && hit.key === key) {
      if (hit.claims.exp * 1000 > now) return hit.claims;
      this.verified.delete(id);
    }
    let claims: JwtClaims;
    try {
      claims = jwt.verify(token, key, {
        algorithms: [JWT_ALGORITHM],
        clockTimestamp: Math.floor(now / 1000),
      }) as unknown as JwtClaims;
    } catch (e) {
      const err = e as Error;
      throw new TokenVerificationError(err.message, err.name);
    }
    if (!hasServiceClaims(claims)) throw new TokenVerificationError('Missing claims', 'JsonWebTokenError');
    if (this.verified.size >= MAX_ENTRIES) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(id, { key, claims });
    return claims;
  }
}

/** The claims every token of the service carries (its record's id, its app, its expiry), well typed. */
export function hasServiceClaims(claims: JwtClaims): boolean {
  return typeof claims.id === 'string' && typeof claims.app_id === 'string' && typeof claims.exp === 'number';
}

/**
 * The service's tokens share a handful of headers (one per signing key), so the `kid` of each header seen is
 * remembered: a token's header is decoded and parsed once, not on every request. Bounded (an unknown header
 * costs one parse; a flood of distinct ones only empties the memo), and only ordinary-sized headers are kept.
 */
const kidByHeader = new Map<string, string | null>();
const KID_MEMO_ENTRIES = 64;
const KID_MEMO_HEADER_CHARS = 512;

export function kidOf(rawJwt: string): string | null {
  const dot = rawJwt.indexOf('.');
  const header = dot === -1 ? rawJwt : rawJwt.slice(0, dot);
  const known = kidByHeader.get(header);
  if (known !== undefined) return known;
  const kid = parseKid(header);
  if (header.length <= KID_MEMO_HEADER_CHARS) {
    if (kidByHeader.size >= KID_MEMO_ENTRIES) kidByHeader.clear();
    kidByHeader.set(header, kid);
  }
  return kid;
}

function parseKid(header: string): string | null {
  try {
    const parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { kid?: unknown };
    return typeof parsed.kid === 'string' ? parsed.kid : null;
  } catch {
    return null;
  }
}
