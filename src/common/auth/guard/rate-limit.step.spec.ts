import type { Response } from 'express';
import { guardContext } from '../../../../test/utils/guard-context.js';
import type { RateLimiter } from '../../rate-limit/rate-limiter.js';
import { RateLimitStep } from './rate-limit.step.js';

describe('RateLimitStep', () => {
  it('charges the bucket of the caller’s user and token, and lets the limiter refuse', async () => {
    const calls: unknown[][] = [];
    const limiter = {
      enforce: async (...args: unknown[]) => {
        calls.push(args);
        if (calls.length > 1) throw new Error('429');
      },
    } as unknown as RateLimiter;
    const step = new RateLimitStep(limiter);
    const ctx = guardContext({ auth: { userId: 'user-1', tokenId: 'token-9' } });
    await step.run(ctx);
    expect(calls[0]).toEqual(['token', 'user-1:token-9', ctx.res as Response]);
    await expect(step.run(ctx)).rejects.toThrow('429');
  });
});
