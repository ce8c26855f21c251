import { type BucketState, decisionFromLevel, drip } from './leaky-bucket.js';
import { LeakyBucketStorage } from './leaky-bucket.storage.js';

const SPEC = { burst: 1000, perSecond: 50 };

describe('leaky bucket', () => {
  it('admits the burst at once, then refuses with the wait for one more', () => {
    let s: BucketState | undefined;
    let admitted = 0;
    for (let i = 0; i < 1100; i++) {
      const [next, d] = drip(s, 0, SPEC);
      s = next;
      if (d.allowed) admitted++;
      else expect(d).toEqual({ allowed: false, remaining: 0, retryAfter: 1 });
    }
    expect(admitted).toBe(1000);
  });

  it('drains at the sustained rate: 50 more after one second, none before the 20 ms of the first', () => {
    let s: BucketState = { level: 1000, at: 0 };
    expect(drip(s, 19, SPEC)[1].allowed).toBe(false);
    let admitted = 0;
    for (let i = 0; i < 100; i++) {
      const [next, d] = drip(s, 1000, SPEC);
      s = next;
      if (d.allowed) admitted++;
    }
    expect(admitted).toBe(50);
  });

  it('counts down RateLimit-Remaining and never goes below zero', () => {
    const [s1, d1] = drip(undefined, 0, SPEC);
    expect(d1.remaining).toBe(999);
    const [, d2] = drip(s1, 0, SPEC);
    expect(d2.remaining).toBe(998);
    expect(decisionFromLevel(false, 1000, SPEC).remaining).toBe(0);
  });

  it('a refused request adds nothing: a client that backs off recovers at the drain rate', () => {
    let s: BucketState = { level: 1000, at: 0 };
    for (let i = 0; i < 500; i++) s = drip(s, 0, SPEC)[0];
    expect(s.level).toBe(1000);
    expect(drip(s, 20, SPEC)[1].allowed).toBe(true);
  });

  it('says how long to wait in whole seconds, at least one', () => {
    expect(decisionFromLevel(false, 1000, { burst: 10, perSecond: 0.5 }).retryAfter).toBe(1982);
    expect(decisionFromLevel(false, 10, { burst: 10, perSecond: 0.5 }).retryAfter).toBe(2);
    expect(decisionFromLevel(false, 10, { burst: 10, perSecond: 1000 }).retryAfter).toBe(1);
  });
});

describe('LeakyBucketStorage without Redis', () => {
  it('keeps one bucket per throttler name and key', async () => {
    let now = 0;
    const storage = new LeakyBucketStorage(null, () => now);
    const hit = (key: string, name = 'token') => storage.increment(key, 1000, 2, 0, name);
    expect((await hit('a')).isBlocked).toBe(false);
    expect((await hit('a')).isBlocked).toBe(false);
    const third = await hit('a');
    expect(third).toEqual({ totalHits: 2, timeToExpire: 1, isBlocked: true, timeToBlockExpire: 1 });
    expect((await hit('b')).isBlocked).toBe(false);
    expect((await hit('a', 'signin')).isBlocked).toBe(false);
    now = 500; // 2 per second: one drained
    expect((await hit('a')).isBlocked).toBe(false);
    expect((await hit('a')).isBlocked).toBe(true);
    expect(storage.shared).toBe(false);
  });

  it('several buckets at once: charged in order, and a full one ends it (the ones after are not charged)', async () => {
    const storage = new LeakyBucketStorage(null, () => 0);
    const charge = () =>
      storage.incrementAll([
        { key: 'u:t', ttl: 1000, limit: 1, name: 'token' },
        { key: 'u', ttl: 1000, limit: 3, name: 'user' },
      ]);
    expect((await charge()).map((r) => [r.isBlocked, r.totalHits])).toEqual([
      [false, 1],
      [false, 1],
    ]);
    // the token's bucket is full: refused there, the user's bucket untouched
    expect((await charge()).map((r) => [r.isBlocked, r.totalHits])).toEqual([[true, 1]]);
    expect((await storage.increment('u', 1000, 3, 0, 'user')).totalHits).toBe(2);
  });

  it('a refusal always reads as a full bucket (no "1 remaining" from a level a hair above burst − 1)', async () => {
    let now = 0;
    const storage = new LeakyBucketStorage(null, () => now);
    for (let i = 0; i < 20; i++) await storage.increment('k', 2000, 20, 0, 'token'); // 10 per second
    now = 99.99999999; // drained to 19.0000000001: one more does not fit
    const refused = await storage.increment('k', 2000, 20, 0, 'token');
    expect(refused).toMatchObject({ isBlocked: true, totalHits: 20 });
  });

  it('stays bounded under a flood of keys', async () => {
    const storage = new LeakyBucketStorage(null, () => 0);
    for (let i = 0; i < 100_500; i++) await storage.increment(`k${i}`, 20_000, 1000, 0, 'anonymous');
    const size = (storage as unknown as { local: Map<string, unknown> }).local.size;
    expect(size).toBeLessThanOrEqual(100_000);
    expect(size).toBeGreaterThan(80_000);
  });
});
