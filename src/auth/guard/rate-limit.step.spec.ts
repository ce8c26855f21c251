import type { Response } from 'express';
import { guardContext } from '../../../test/utils/guard-context.js';
import { loadConfig } from '../../app/config.js';
import { RateLimiter } from '../../base/common/rate-limit/rate-limiter.js';
import { RateLimitStep } from './rate-limit.step.js';

describe('RateLimitStep', () => {
  it('charges the bucket of the caller’s user and token, then the user’s own, and lets the limiter refuse', async () => {
    const calls: unknown[][] = [];
    const limiter = {
      enforceAll: async (...args: unknown[]) => {
        calls.push(args);
        if (calls.length > 1) throw new Error('429');
      },
    } as unknown as RateLimiter;
    const step = new RateLimitStep(limiter);
    const ctx = guardContext({ auth: { userId: 'user-1', tokenId: 'token-9' } });
    await step.run(ctx);
    expect(calls[0]).toEqual([
      [
        ['token', 'user-1:token-9'],
        ['user', 'user-1'],
      ],
      ctx.res as Response,
    ]);
    await expect(step.run(ctx)).rejects.toThrow('429');
  });

  it('several tokens of one user share the user’s bucket: refused once it is empty; the header shows the smaller', async () => {
    const limiter = new RateLimiter(
      loadConfig({
        RATE_LIMIT_BURST: '5',
        RATE_LIMIT_PER_SECOND: '0.001',
        RATE_LIMIT_USER_BURST: '8',
        RATE_LIMIT_USER_PER_SECOND: '0.001',
      }),
    );
    const step = new RateLimitStep(limiter);
    const remaining: string[] = [];
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const headers = new Map<string, string>();
      const res = {
        headersSent: false,
        setHeader: (k: string, v: string) => headers.set(k, v),
        getHeader: (k: string) => headers.get(k),
      } as unknown as Response;
      const ctx = { ...guardContext({ auth: { userId: 'user-1', tokenId: `token-${i % 4}` } }), res };
      await step.run(ctx).then(
        () => outcomes.push('ok'),
        (e: { status?: number }) => outcomes.push(String(e.status)),
      );
      remaining.push(String(res.getHeader('RateLimit-Remaining')));
    }
    // 4 tokens × 3 requests, each token far from its own 5: the user's 8 is what refuses
    expect(outcomes).toEqual([...Array(8).fill('ok'), '429', '429', '429', '429']);
    // first round: each token 4 left, the user 7..4; second round: tokens 3, the user 3..0
    expect(remaining.slice(0, 8)).toEqual(['4', '4', '4', '4', '3', '2', '1', '0']);
    expect(remaining.slice(8)).toEqual(['0', '0', '0', '0']);
    await limiter.onApplicationShutdown();
  });
});
