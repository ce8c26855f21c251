import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { failFastRedis } from '../redis.js';
import { APP_CONFIG, type BaseConfig } from '../../config/config.js';

/** A cache's reaction to a change: one key, or `null` for "everything may have changed". */
export type InvalidationHandler = (key: string | null) => void;

/**
 * The channel of one deployment: `<RATE_LIMIT_NAMESPACE>:invalidate`. The namespace is what deployments
 * sharing one Redis already set apart (their rate-limit buckets); their caches must not hear each other's
 * changes either. Default: portcullis:invalidate.
 */
const channelOf = (config: BaseConfig) => `${config.rateLimit.namespace}:invalidate`;

interface Message {
  /** the publishing instance (it has already applied the change locally) */
  i: string;
  t: string;
  k: string | null;
}

/**
 * Tells every instance's in-process caches that something changed, so several instances behind a load
 * balancer answer as one. A change is applied to this instance's caches at once and published on Redis
 * (`REDIS_URL`) to the others; `publish` resolves once Redis has accepted the message.
 *
 * `coherent` says whether a cache may serve from memory at all: with the embedded database (one process
 * owns it, so there is no other instance) always; on PostgreSQL only while the Redis subscription is up.
 * Without Redis, or while it is unreachable, caches must read through to the database — a change on
 * another instance could not reach them. When the subscription comes back, every cache is cleared, since
 * messages sent meanwhile were lost.
 */
@Injectable()
export class InvalidationBus implements OnModuleDestroy {
  private readonly logger = new Logger(InvalidationBus.name);
  private readonly handlers = new Map<string, Set<InvalidationHandler>>();
  /** This instance's id on the bus (its Redis connections are named after it). */
  readonly instance = randomUUID();
  private readonly pub: Redis | null = null;
  private readonly sub: Redis | null = null;
  private readonly singleProcess: boolean;
  private readonly channel: string;
  private subscribed = false;

  constructor(@Inject(APP_CONFIG) config: BaseConfig) {
    this.singleProcess = config.database.url === null;
    this.channel = channelOf(config);
    if (!config.redis.url) {
      if (!this.singleProcess) {
        this.logger.warn(
          'REDIS_URL is not set: caches of shared records are off (every read goes to the database)',
        );
      }
      return;
    }
    // fail fast (common/redis.ts): a publish while Redis is away or silent must not hold up the write that
    // made it; the subscription is made again by hand on every (re)connection, see 'ready' below
    this.pub = failFastRedis(config.redis.url, `portcullis-pub-${this.instance}`);
    this.sub = failFastRedis(config.redis.url, `portcullis-sub-${this.instance}`, { autoResubscribe: false });
    for (const conn of [this.pub, this.sub]) {
      // ioredis reconnects by itself; an unhandled 'error' event would crash the process
      conn.on('error', (e: Error) => this.logger.warn(`redis: ${e.message}`));
    }
    this.sub.on('message', (channel: string, raw: string) => this.receive(channel, raw));
    this.sub.on('close', () => {
      if (this.subscribed) this.logger.warn('redis subscription lost: caches read through until it is back');
      this.subscribed = false;
    });
    this.sub.on('ready', () => {
      const sub = this.sub as Redis;
      sub.subscribe(this.channel).then(
        () => {
          // whatever was published while we were not listening is lost: start from empty caches
          this.dispatchAll(null);
          this.subscribed = true;
        },
        (e: Error) => {
          // not listening: caches read through; reconnect, and the next 'ready' tries again
          this.logger.warn(`redis subscribe failed: ${e.message}`);
          sub.disconnect(true);
        },
      );
    });
  }

  /** Whether an in-process cache may answer from memory now (see the class comment). */
  get coherent(): boolean {
    return this.singleProcess || this.subscribed;
  }

  /** Resolves once this instance is subscribed (no-op without Redis); for start-up and tests. */
  async ready(timeoutMs = 5_000): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    while (this.sub && !this.subscribed && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
    return this.coherent;
  }

  subscribe(topic: string, handler: InvalidationHandler): void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
  }

  /**
   * Call after the change has committed. Applied here at once; other instances are told through Redis. If
   * Redis cannot take the message, the change is still committed: other instances then see it within their
   * caches' lifetime at the latest (a warning is logged). Never waits on an absent or silent Redis: the
   * connection has no offline queue and a 250 ms command timeout (common/redis.ts). The other instances'
   * subscriptions were lost with it too, so they read through meanwhile and empty their caches on reconnecting.
   */
  async publish(topic: string, key: string | null): Promise<void> {
    this.dispatch(topic, key);
    if (!this.pub) return;
    const message: Message = { i: this.instance, t: topic, k: key };
    try {
      await this.pub.publish(this.channel, JSON.stringify(message));
    } catch (e) {
      this.logger.warn(`redis publish failed (${(e as Error).message}): other instances learn of it late`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.subscribed = false;
    await Promise.all([this.pub, this.sub].map((c) => c?.quit().catch(() => c.disconnect())));
  }

  private receive(channel: string, raw: string): void {
    if (channel !== this.channel) return;
    let msg: Message;
    try {
      msg = JSON.parse(raw) as Message;
    } catch {
      return;
    }
    if (msg.i === this.instance || typeof msg.t !== 'string') return;
    this.dispatch(msg.t, typeof msg.k === 'string' ? msg.k : null);
  }

  private dispatch(topic: string, key: string | null): void {
    for (const h of this.handlers.get(topic) ?? []) h(key);
  }

  private dispatchAll(key: string | null): void {
    for (const topic of this.handlers.keys()) this.dispatch(topic, key);
  }
}
