import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import {
  type BucketCharge,
  LeakyBucketStorage,
} from '../../src/base/common/rate-limit/leaky-bucket.storage.js';

/**
 * The rate limit's storage against a real Redis (REDIS_URL: CI's PostgreSQL pass): the charges of one turn of
 * the event loop are one script call (LUA_LEAKY_BUCKET_BATCH), with the answers one call per request gave.
 */
const redisUrl = process.env.REDIS_URL;
(redisUrl ? describe : describe.skip)(
  'the requests of one turn of the event loop share one Redis script call',
  () => {
    let redis: Redis;
    let calls: number;
    let storage: LeakyBucketStorage;
    // a budget that does not drain within a test: `limit` requests per 10^9 ms
    const charge = (name: string, key: string, limit: number): BucketCharge => ({
      key,
      ttl: 1e9,
      limit,
      name,
    });

    beforeEach(async () => {
      redis = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
      await new Promise((r) => redis.once('ready', r));
      storage = new LeakyBucketStorage(redis, Date.now, `test-${randomUUID()}`);
      const batch = (redis as unknown as Record<string, (...a: unknown[]) => unknown>).leakyBucketBatch;
      calls = 0;
      (redis as unknown as Record<string, unknown>).leakyBucketBatch = (...a: unknown[]) => {
        calls++;
        return batch.apply(redis, a);
      };
    });
    afterEach(() => storage.close());

    it('30 requests at once against a burst of 20: the first 20 admitted in arrival order, the rest refused', async () => {
      const records = await Promise.all(
        Array.from({ length: 30 }, () => storage.incrementAll([charge('anonymous', '10.0.0.1', 20)])),
      );
      expect(calls).toBe(1);
      records.forEach((r, i) => {
        expect(r).toHaveLength(1);
        expect(r[0].isBlocked).toBe(i >= 20);
        expect(r[0].totalHits).toBe(i < 20 ? i + 1 : 20);
      });
      // the next turn sees the bucket full
      const [next] = await storage.incrementAll([charge('anonymous', '10.0.0.1', 20)]);
      expect(next.isBlocked).toBe(true);
      expect(calls).toBe(2);
    });

    it('each request stops at its first full bucket: the buckets after it are not charged', async () => {
      const A = charge('token', 'a', 10);
      const B = charge('user', 'b', 2);
      const records = await Promise.all([
        storage.incrementAll([A, B]),
        storage.incrementAll([A, B]),
        storage.incrementAll([A, B]), // A charged, then refused at B
        storage.incrementAll([B, A]), // refused at B: A not charged
        storage.incrementAll([B, A]),
      ]);
      expect(calls).toBe(1);
      expect(records.map((r) => r.map((x) => (x.isBlocked ? 'refused' : x.totalHits)))).toEqual([
        [1, 1],
        [2, 2],
        [3, 'refused'],
        ['refused'],
        ['refused'],
      ]);
      const [a] = await storage.incrementAll([A]);
      expect(a.totalHits).toBe(4);
    });

    it('a batch that Redis fails is charged from memory, and the requests are still answered', async () => {
      (redis as unknown as Record<string, unknown>).leakyBucketBatch = () =>
        Promise.reject(new Error('gone'));
      const records = await Promise.all(
        Array.from({ length: 3 }, () => storage.incrementAll([charge('anonymous', '10.0.0.2', 2)])),
      );
      expect(records.map((r) => r[0].isBlocked)).toEqual([false, false, true]);
      expect(storage.shared).toBe(false);
    });
  },
);
