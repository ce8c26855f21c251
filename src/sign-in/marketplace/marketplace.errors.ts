import { defineErrors, message } from '../../base/common/errors/error-codes.js';

export const MarketplaceErrors = defineErrors('marketplace', {
  /** The nonce is unknown, already used, or expired: one answer for all three, so nothing can be probed. */
  NONCE_INVALID: message(400, 'Invalid or expired marketplace signup nonce'),
  /** The cloud named in the path or the token field has no issuer/keys configured (or is unknown). */
  NOT_CONFIGURED: (() => ({
    status: 400,
    body: (cloud: string) => [`marketplace ${cloud} is not configured`],
  }))(),
  /** The cloud named in the path is not configured: the path names nothing. */
  UNKNOWN_CLOUD: (() => ({
    status: 404,
    body: (cloud: string) => [`marketplace ${cloud} is not configured`],
  }))(),
  /** No `x-<cloud>-marketplace-token` field (or several) in the body. */
  TOKEN_MISSING: message(400, 'A marketplace token field (x-<cloud>-marketplace-token) is required'),
  /** Signature, issuer, audience, algorithm, expiry or a required claim is wrong: one wording for all. */
  TOKEN_INVALID: message(400, 'Invalid marketplace token'),
  /** The marketplace's JWKS could not be fetched (unreachable, timeout, not a key set): try again later. */
  KEYS_UNAVAILABLE: (() => ({
    status: 503,
    body: (cloud: string) => [`marketplace ${cloud} keys are unavailable, try again later`],
  }))(),
  /** The token's `jti` was accepted before. */
  TOKEN_REPLAYED: message(400, 'Marketplace token already used'),
  /** The nonce came from another cloud than the one named in the path. */
  CLOUD_MISMATCH: message(400, 'The marketplace signup nonce belongs to another marketplace'),
  /** The domain is already linked to another marketplace customer. */
  ALREADY_LINKED: message(409, 'This domain is already linked to another marketplace customer'),
});
