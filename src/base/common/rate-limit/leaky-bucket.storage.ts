import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';
import { Batcher } from '../batcher.js';
import { type BucketState, type Budget, drainMs, drip, LUA_LEAKY_BUCKET_BATCH } from './leaky-bucket.js';

/** @nestjs/throttler's record: hits = the bucket's level rounded up, times in whole seconds. */
export type BucketRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** Buckets kept in memory at most; past it the oldest go (a flood of addresses cannot exhaust memory). */
const MAX_LOCAL_BUCKETS = 100_000;

type RedisWithBucket = Redis & {
  leakyBucketBatch(n: number, ...keysThenArgs: (string | number)[]): Promise<(number | string)[]>;
};

/** One request's charges, as the batch carries them. */
interface RequestCharges {
  keys: string[];
  budgets: Budget[];
}

/** One bucket of a multi-bucket charge: as `increment`'s arguments. */
export interface BucketCharge {
  key: string;
  ttl: number;
  limit: number;
  name: string;
}

/**
 * The throttler storage of Portcullis: a leaky bucket (`increment` reads `limit` as the burst and
 * `limit / ttl` as the drain rate). With Redis the buckets are shared by every instance through one Lua
 * script; while Redis cannot be reached, each instance limits on its own from memory and says so once in
 * the log, and goes back to Redis as soon as it answers. A request is never failed because Redis is down.
 */
export class LeakyBucketStorage implements ThrottlerStorage {
  private readonly logger = new Logger('RateLimit');
  private readonly local = new Map<string, BucketState>();
  private readonly redis: RedisWithBucket | null;
  private degraded = false;

  private readonly prefix: string;
  /** The requests of one turn of the event loop: one script call for all of them (LUA_LEAKY_BUCKET_BATCH). */
  private readonly turn = new Batcher<RequestCharges, BucketRecord[]>((items) => this.chargeInRedis(items));

  constructor(
    redis: Redis | null,
    private readonly now: () => number = Date.now,
    namespace = 'portcullis',
  ) {
    this.prefix = `${namespace}:rl:`;
    if (redis) {
      // numberOfKeys given per call (the first argument)
      redis.defineCommand('leakyBucketBatch', { lua: LUA_LEAKY_BUCKET_BATCH });
    }
    this.redis = redis as RedisWithBucket | null;
  }

  /** Whether decisions are currently shared through Redis (false: per instance). */
  get shared(): boolean {
    return this.redis !== null && !this.degraded && this.redis.status === 'ready';
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _block: number,
    name: string,
  ): Promise<BucketRecord> {
    const [charged] = await this.incrementAll([{ key, ttl, limit, name }]);
    return charged;
  }

  /**
   * Several buckets for one request, in order: the records of the buckets charged; a refusal ends the list
   * (the buckets after it are not charged). With Redis, the requests of one turn of the event loop share one
   * script call (a bucket many of them charge, such as one client's, is read and written once), each still
   * charged in arrival order. From memory, the same, bucket by bucket, while Redis is away.
   */
  async incrementAll(charges: readonly BucketCharge[]): Promise<BucketRecord[]> {
    const budgets = charges.map((c) => ({ burst: c.limit, perSecond: (c.limit * 1000) / c.ttl }));
    const keys = charges.map((c) => `${this.prefix}${c.name}:${c.key}`);
    if (this.redis && this.redis.status === 'ready') return this.turn.add({ keys, budgets });
    if (this.redis) this.degrade(`connection ${this.redis.status}`);
    return this.chargeLocally({ keys, budgets });
  }

  /** One batch in one script call; never throws: while Redis fails, each request is charged from memory. */
  private async chargeInRedis(items: RequestCharges[]): Promise<BucketRecord[][]> {
    try {
      const index = new Map<string, number>();
      const keys: string[] = [];
      const budgetArgs: number[] = [];
      const requestArgs: number[] = [items.length];
      for (const item of items) {
        requestArgs.push(item.keys.length);
        item.keys.forEach((key, j) => {
          let i = index.get(key);
          if (i === undefined) {
            i = keys.push(key); // 1-based, as Lua indexes
            index.set(key, i);
            budgetArgs.push(item.budgets[j].burst, item.budgets[j].perSecond);
          }
          requestArgs.push(i);
        });
      }
      const out = await this.redis!.leakyBucketBatch(keys.length, ...keys, ...budgetArgs, ...requestArgs);
      if (this.degraded) {
        this.degraded = false;
        this.logger.warn('Redis answers again: rate limits are shared by every instance');
      }
      let p = 0;
      return items.map((item) => {
        const charged = Number(out[p++]);
        const records: BucketRecord[] = [];
        for (let j = 0; j < charged; j++, p += 2) {
          records.push(record(Number(out[p]) === 1, Number(out[p + 1]), item.budgets[j]));
        }
        return records;
      });
    } catch (e) {
      this.degrade((e as Error).message);
      return items.map((item) => this.chargeLocally(item));
    }
  }

  private chargeLocally({ keys, budgets }: RequestCharges): BucketRecord[] {
    const records: BucketRecord[] = [];
    for (let i = 0; i < keys.length; i++) {
      const r = this.incrementLocal(keys[i], budgets[i]);
      records.push(r);
      if (r.isBlocked) break;
    }
    return records;
  }

  async close(): Promise<void> {
    if (!this.redis) return;
    await this.redis.quit().catch(() => this.redis!.disconnect());
  }

  private incrementLocal(key: string, budget: Budget): BucketRecord {
    const now = this.now();
    const [state, decision] = drip(this.local.get(key), now, budget);
    this.local.delete(key); // re-inserted last: the map's order is the least recently used first
    this.local.set(key, state);
    if (this.local.size > MAX_LOCAL_BUCKETS) this.evict(now, budget);
    return record(decision.allowed, state.level, budget);
  }

  /** Drops drained buckets, then the least recently used ones, down to 90% of the cap. */
  private evict(now: number, budget: Budget): void {
    for (const [k, s] of this.local) {
      if (now - s.at >= drainMs(s.level, budget)) this.local.delete(k);
    }
    for (const k of this.local.keys()) {
      if (this.local.size <= MAX_LOCAL_BUCKETS * 0.9) break;
      this.local.delete(k);
    }
  }

  private degrade(reason: string): void {
    if (this.degraded) return;
    this.degraded = true;
    this.logger.warn(`Redis unreachable (${reason}): rate limits are per instance until it is back`);
  }
}

function record(allowed: boolean, level: number, b: Budget): BucketRecord {
  const retry = allowed ? 0 : Math.max(1, Math.ceil((level + 1 - b.burst) / b.perSecond));
  return {
    // refused: the bucket is full by definition (a level a hair above burst − 1 must not read as room for one)
    totalHits: allowed ? Math.ceil(level - 1e-9) : b.burst,
    timeToExpire: Math.ceil(drainMs(level, b) / 1000),
    isBlocked: !allowed,
    timeToBlockExpire: retry,
  };
}
