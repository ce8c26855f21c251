import type { BeforeApplicationShutdown, Logger, OnApplicationBootstrap } from '@nestjs/common';

/**
 * Exponential backoff with ±25% jitter for retry number `n` (1 = after the first failure): base · 2^(n−1),
 * capped at `maxMs`. Shared by the workers that retry deliveries (webhooks, mail).
 */
export function backoffMs(n: number, c: { retryBaseMs: number; retryMaxMs: number }): number {
  const exp = Math.min(c.retryMaxMs, c.retryBaseMs * 2 ** Math.min(n - 1, 40));
  return Math.round(Math.min(c.retryMaxMs, exp * (0.75 + Math.random() * 0.5)));
}

/**
 * The timer of a polling worker (the webhook and mail workers): runs `round` every `intervalMs`, at once
 * again when a round says there is more (a full batch) or when nudged while running, and waits longer after
 * each failed round (up to 30 s; the first failure of a run is logged once). `stop` waits for the round in
 * flight, so a worker stops before the data source closes.
 */
export class PollingLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private started = false;
  private stopped = false;
  private errors = 0;
  private completed = 0;
  private waiting: { at: number; resolve: () => void; reject: (e: Error) => void }[] = [];

  constructor(
    private readonly what: string,
    private readonly intervalMs: number,
    /** One round; resolves true when there is more to do right away. */
    private readonly round: () => Promise<boolean>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.started = true;
    this.schedule(0);
  }

  /** Look now (a commit queued work here); a round in flight is followed by another at once. */
  nudge(): void {
    if (!this.started || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Started and not stopped: the worker looks for work. */
  get isRunning(): boolean {
    return this.started && !this.stopped;
  }

  /**
   * Resolves once `n` more rounds than now have completed, the first at once (a nudge): proof that the
   * worker looked again, after which what it would have done is done. Tests wait on it instead of a fixed
   * sleep before asserting that nothing more happened; rejects if the loop stops first.
   */
  afterRounds(n = 2): Promise<void> {
    if (!this.isRunning) return Promise.reject(new Error(`${this.what} is not running`));
    const done = new Promise<void>((resolve, reject) =>
      this.waiting.push({ at: this.completed + n, resolve, reject }),
    );
    this.nudge();
    return done;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error(`${this.what} stopped`));
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick().finally(() => {
        this.running = null;
        this.completed++;
        this.waiting = this.waiting.filter((w) => (w.at <= this.completed ? (w.resolve(), false) : true));
      });
    }, ms);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.again = false;
    let next = this.intervalMs;
    try {
      if (await this.round()) next = 0;
      this.errors = 0;
    } catch (err) {
      // the database is away (or going): wait longer each time, up to 30 s, and say so once
      if (this.stopped) return;
      if (this.errors++ === 0) this.logger.warn(`${this.what}: ${(err as Error).message}`);
      next = Math.min(30_000, this.intervalMs * 2 ** Math.min(this.errors, 10));
    }
    this.schedule(this.again ? 0 : next);
  }
}

/**
 * A worker that a PollingLoop drives for the application's lifetime (files, mail, webhooks, audit retention,
 * domain schedule): the loop starts when the application has bootstrapped and stops, waiting for the round in
 * flight, before the data source closes. A subclass gives its `round`; one that does more at start or stop
 * overrides the hook and calls `super`.
 */
export abstract class PollingWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  protected readonly loop: PollingLoop;

  protected constructor(
    what: string,
    intervalMs: number,
    protected readonly logger: Logger,
  ) {
    this.loop = new PollingLoop(what, intervalMs, () => this.round(), logger);
  }

  /** One round; resolves true when there is more to do right away (a full batch). */
  protected abstract round(): Promise<boolean>;

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** Look now (a commit queued work); a round in flight is followed by another at once. */
  nudge(): void {
    this.loop.nudge();
  }

  /** Once this worker has run `n` more rounds (PollingLoop.afterRounds): what it would have done is done. */
  afterRounds(n = 2): Promise<void> {
    return this.loop.afterRounds(n);
  }
}
