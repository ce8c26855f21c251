import { Inject, Injectable, type OnApplicationShutdown, Optional } from '@nestjs/common';
// @nestjs/throttler 6 is CommonJS that requires the ESM-only @nestjs/common 12: Node loads it, Jest cannot.
// So its contracts are used as types (ThrottlerStorage, ThrottlerOptions) and its pure address helper
// directly; ThrottlerModule and ThrottlerGuard are not loaded (the one AuthGuard enforces the budgets).
import type { ThrottlerOptions } from '@nestjs/throttler';
import { normalizeIp } from '@nestjs/throttler/dist/ip.js';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { failFastRedis } from '../redis.js';
import { APP_CONFIG, type BaseConfig } from '../../config/config.js';
import type { Budget, Decision } from './leaky-bucket.js';
import { LeakyBucketStorage } from './leaky-bucket.storage.js';
import { rateLimited } from './rate-limit.errors.js';
import { Metrics } from '../metrics/metrics.service.js';

/**
 * The budgets. `token`: every authenticated request, per user and token (the spec's 50/s, 1000 burst);
 * `user`: the same requests again, per user over all their tokens (so more tokens buy no more requests).
 * The others are per client address, for what has no verified caller: `signin` (password and code checks,
 * secret collection), `oauth` (the token, revocation and introspection endpoints, which authenticate clients
 * themselves), `anonymous` (every other unauthenticated request, failed authentication, unknown paths) and
 * `registration` (self-service sign-up, which sends mail to any address: small).
 */
export const BUDGETS = ['token', 'user', 'signin', 'oauth', 'anonymous', 'registration'] as const;
export type BudgetName = (typeof BUDGETS)[number];

export const REMAINING_HEADER = 'RateLimit-Remaining';

/** The budgets as @nestjs/throttler's options: `limit` is the burst, `ttl` the time the burst takes to drain. */
export function throttlerOptions(config: BaseConfig): ThrottlerOptions[] {
  return BUDGETS.map((name) => {
    const b = config.rateLimit.budgets[name];
    return { name, limit: b.burst, ttl: Math.round((b.burst * 1000) / b.perSecond) };
  });
}

/** The Redis connection of the buckets: fails fast (never queues or stalls a request while Redis is away). */
export function rateLimitRedis(config: BaseConfig): Redis | null {
  if (!config.redis.url || !config.rateLimit.enabled) return null;
  // keeps trying, at most every 2 s: the buckets come back to Redis as soon as it does. The charges of every
  // request that reaches the limiter in one turn of the event loop are one script call (LeakyBucketStorage),
  // charged in arrival order: that call is all this client sends, so auto-pipelining would only delay it by
  // one more turn.
  const redis = failFastRedis(config.redis.url, 'portcullis-ratelimit');
  redis.on('error', () => undefined); // the storage logs the outage once; ioredis reconnects by itself
  return redis;
}

/**
 * Decides whether a request may go on, and says how much is left on every response. Used by the guard
 * (the caller's own bucket once authenticated; the client address before that) and by the error filters
 * for requests that fail before any route is chosen.
 */
@Injectable()
export class RateLimiter implements OnApplicationShutdown {
  private readonly budgets = new Map<string, ThrottlerOptions>();
  readonly enabled: boolean;
  /** The buckets: in Redis when there is one (shared by every instance), in memory otherwise. */
  readonly storage: LeakyBucketStorage;

  constructor(
    @Inject(APP_CONFIG) config: BaseConfig,
    @Optional() private readonly metrics?: Metrics,
  ) {
    this.enabled = config.rateLimit.enabled;
    this.storage = new LeakyBucketStorage(rateLimitRedis(config), Date.now, config.rateLimit.namespace);
    for (const t of throttlerOptions(config)) this.budgets.set(t.name!, t);
  }

  /** One request against `budget` for `key`; the remaining count is set on the response. */
  async consume(budget: BudgetName, key: string, res: Response): Promise<Decision> {
    const decision = await this.charge(budget, key);
    if (this.enabled && !res.headersSent) res.setHeader(REMAINING_HEADER, String(decision.remaining));
    return decision;
  }

  /** `consume`, refusing with a 429 (Retry-After) when the bucket is full. */
  async enforce(budget: BudgetName, key: string, res: Response): Promise<void> {
    const d = await this.consume(budget, key, res);
    if (!d.allowed) throw rateLimited(d.retryAfter);
  }

  /**
   * One request against several buckets, in order, in one round trip to Redis: refused (429) when any is
   * full, and a refusal charges none of the buckets after it. The remaining count on the response is the
   * smallest.
   */
  async enforceAll(charges: readonly (readonly [BudgetName, string])[], res: Response): Promise<void> {
    if (!this.enabled) return;
    const records = await this.storage.incrementAll(
      charges.map(([budget, key]) => {
        const t = this.budgets.get(budget)!;
        return { key, ttl: t.ttl as number, limit: t.limit as number, name: budget };
      }),
    );
    let remaining = Number.POSITIVE_INFINITY;
    let refused: Decision | null = null;
    records.forEach((r, i) => {
      const limit = this.budgets.get(charges[i][0])!.limit as number;
      remaining = Math.min(remaining, Math.max(0, limit - r.totalHits));
      if (r.isBlocked) {
        this.metrics?.rateLimitRefusal(charges[i][0]);
        refused = { allowed: false, remaining: 0, retryAfter: r.timeToBlockExpire };
      }
    });
    if (!res.headersSent) res.setHeader(REMAINING_HEADER, String(remaining));
    if (refused) throw rateLimited((refused as Decision).retryAfter);
  }

  private async charge(budget: BudgetName, key: string): Promise<Decision> {
    if (!this.enabled) return { allowed: true, remaining: 0, retryAfter: 0 };
    const t = this.budgets.get(budget)!;
    const limit = t.limit as number;
    const r = await this.storage.increment(key, t.ttl as number, limit, 0, budget);
    if (r.isBlocked) this.metrics?.rateLimitRefusal(budget);
    return {
      allowed: !r.isBlocked,
      remaining: Math.max(0, limit - r.totalHits),
      retryAfter: r.timeToBlockExpire,
    };
  }

  /** The client's address bucket key (an IPv6 client is its /64: one host holds the whole subnet). */
  addressKey(req: Request): string {
    return normalizeIp(req.ip ?? req.socket.remoteAddress ?? 'unknown', 64);
  }

  /**
   * For answers that never reached the guard (unknown path, unreadable body): charge the address and set the
   * header. Never throws: an error answer is going out anyway.
   */
  async chargeUnrouted(req: Request, res: Response): Promise<void> {
    if (!this.enabled || res.getHeader(REMAINING_HEADER) !== undefined) return;
    try {
      await this.consume('anonymous', this.addressKey(req), res);
    } catch {
      // the storage falls back to memory by itself; nothing else can fail here worth a different answer
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.storage.close();
  }

  /** A budget as configured (for the README and tests). */
  budget(name: BudgetName): Budget {
    const t = this.budgets.get(name)!;
    const burst = t.limit as number;
    return { burst, perSecond: (burst * 1000) / (t.ttl as number) };
  }
}
