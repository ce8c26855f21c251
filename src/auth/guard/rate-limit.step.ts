import type { RateLimiter } from '../../base/common/rate-limit/rate-limiter.js';
import type { GuardContext, GuardStep } from './guard-step.js';

/**
 * The spec's rate limit, per authenticated user and token, and per user over all their tokens (minting more
 * tokens buys no more requests): first after authentication, so that every authenticated answer (a 401 or
 * 403 of a later step too) carries RateLimit-Remaining (the smaller of the two), and a refused client costs
 * nothing more. Either bucket full is a 429 with Retry-After.
 */
export class RateLimitStep implements GuardStep {
  readonly name = 'rate limit';

  constructor(private readonly limiter: RateLimiter) {}

  run({ auth, res }: GuardContext): Promise<void> {
    return this.limiter.enforceAll(
      [
        ['token', `${auth.userId}:${auth.tokenId}`],
        ['user', auth.userId],
      ],
      res,
    );
  }
}
