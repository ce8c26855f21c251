import type { ConfigOf } from '../../base/config/namespace.js';
import { WEBHOOK_CONFIG } from './webhook-config.js';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { Clock } from '../../base/common/clock.js';
import { backoffMs, PollingWorker } from '../../base/common/polling-loop.js';
import type { WebhookConfig } from './webhook-config.js';
import { WebhookEventsService } from '../events/webhook-events.service.js';
import { WebhookSecrets } from './webhook-secrets.js';
import { type SendResult, truncate, WebhookSender } from './webhook-sender.js';
import { type ClaimedDelivery as Claimed, WebhooksRepository } from './webhooks.repository.js';

/** Consecutive failed attempts after which an ENABLED webhook becomes FAILING. */
export const FAILING_AFTER = 3;
/** Deliveries claimed per round; a full round starts the next one at once. */
const BATCH = 10;
/** Finished deliveries (and events left without deliveries) are kept this long for the delivery log. */
const RETENTION_MS = 7 * 24 * 3600 * 1000;
const CLEANUP_EVERY_MS = 10 * 60 * 1000;
/** A claim outlives the attempt's timeout by this much; after it, another instance may take the delivery. */
const LEASE_MARGIN_MS = 5_000;
const USER_AGENT = 'Portcullis-Webhooks/1.0';

/**
 * The delivery worker of this instance: polls every WEBHOOK_POLL_INTERVAL_MS (and at once when a commit
 * recorded deliveries here), posts each claimed delivery signed with the Standard Webhooks scheme, and
 * records the attempt. At least once: a delivery is DELIVERED only after a 2xx; anything else is retried
 * with backoff. The webhook becomes FAILING after FAILING_AFTER consecutive failures and DISABLED once it
 * has been failing for WEBHOOK_DISABLE_AFTER_SECONDS (its pending deliveries are then given up); a success
 * sets a FAILING webhook back to ENABLED. Stops before the data source closes (beforeApplicationShutdown):
 * attempts in flight are aborted and handed back to the queue.
 */
@Injectable()
export class WebhookWorker extends PollingWorker implements OnApplicationShutdown {
  private readonly config: WebhookConfig;
  private readonly sender: WebhookSender;
  private readonly abort = new AbortController();
  private lastCleanup = 0;

  constructor(
    private readonly repo: WebhooksRepository,
    @Inject(WEBHOOK_CONFIG.token) webhooksConfig: ConfigOf<typeof WEBHOOK_CONFIG>,
    private readonly clock: Clock,
    private readonly secrets: WebhookSecrets,
    events: WebhookEventsService,
  ) {
    super('webhook worker', webhooksConfig.pollIntervalMs, new Logger('Webhooks'));
    this.config = webhooksConfig;
    this.sender = new WebhookSender({
      allowPrivate: this.config.allowPrivate,
      timeoutMs: this.config.timeoutMs,
    });
    events.onCommitted(() => this.nudge());
  }

  override onApplicationBootstrap(): void {
    this.lastCleanup = Date.now();
    super.onApplicationBootstrap();
  }

  override async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  async stop(): Promise<void> {
    const stopping = this.loop.stop();
    this.abort.abort();
    await stopping;
    this.sender.close();
  }

  /** One round of the loop: true when the batch was full (there may be more due right away). */
  protected async round(): Promise<boolean> {
    if (Date.now() - this.lastCleanup >= CLEANUP_EVERY_MS) await this.cleanup();
    const claimed = await this.claim();
    await Promise.all(claimed.map((c) => this.attempt(c)));
    return claimed.length === BATCH;
  }

  private async claim(): Promise<Claimed[]> {
    const now = this.clock.now();
    const lease = new Date(now.getTime() + this.config.timeoutMs + LEASE_MARGIN_MS);
    return this.repo.claimDue(now, lease, BATCH);
  }

  private async attempt(c: Claimed): Promise<void> {
    const message = {
      system_domain_id: c.system_domain_id,
      object_id: c.object_id,
      realm: c.realm,
      operation: c.operation,
      event_type: c.event_type,
      request_id: c.request_id,
      data: c.data,
    };
    const body = JSON.stringify(message);
    let result: SendResult;
    try {
      // the signature's timestamp is real time: receivers compare it with their own clock
      const sentAt = new Date();
      const signature = new Webhook(this.secrets.open(c.secret_sealed)).sign(c.id, sentAt, body);
      result = await this.sender.post(
        c.url,
        body,
        {
          ...this.secrets.openHeaders(c.headers_sealed),
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': c.id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signature,
        },
        this.abort.signal,
      );
    } catch (err) {
      result = {
        ok: false,
        status: null,
        durationMs: 0,
        error: truncate(`internal: ${(err as Error).message}`),
      };
    }
    if (this.abort.signal.aborted && !result.ok) {
      // shutting down: not the receiver's failure; hand the delivery back for the next worker
      await this.repo.handBack(c.id).catch(() => undefined);
      return;
    }
    if (result.ok) await this.succeeded(c, result);
    else await this.failed(c, result, message);
  }

  private async succeeded(c: Claimed, r: SendResult): Promise<void> {
    const now = this.clock.now();
    await this.repo.markDelivered(c.id, now, r.status, r.durationMs);
    // only when there is something to reset: the common case writes nothing here
    const status = await this.repo.clearFailures(c.webhook_id);
    if (status !== undefined) this.logger.log(`webhook ${c.webhook_id} delivered again: ${status}`);
  }

  private async failed(c: Claimed, r: SendResult, message: object): Promise<void> {
    const now = this.clock.now();
    const horizonMs = this.config.disableAfterSeconds * 1000;
    const giveUp = now.getTime() - new Date(c.queued_at).getTime() >= horizonMs;
    const next = new Date(now.getTime() + backoffMs(c.attempts, this.config));
    const error = r.error ?? `HTTP ${r.status}`;
    await this.repo.transaction(async (em) => {
      await this.repo.recordAttemptFailed(em, c.id, giveUp ? 'FAILED' : 'PENDING', next, {
        status: r.status,
        durationMs: r.durationMs,
        error,
      });
      const state = await this.repo.countFailure(em, {
        webhookId: c.webhook_id,
        now,
        error,
        payload: message,
        failingAfter: FAILING_AFTER,
        disableBefore: new Date(now.getTime() - horizonMs),
      });
      if (state?.status === 'DISABLED') {
        await this.repo.giveUpPending(em, c.webhook_id, 'disabled');
        this.logger.warn(
          `webhook ${c.webhook_id} DISABLED after failing for ${this.config.disableAfterSeconds} s`,
        );
      } else if (state?.status === 'FAILING' && state.consecutive_failures === FAILING_AFTER) {
        this.logger.warn(`webhook ${c.webhook_id} FAILING: ${error}`);
      }
    });
  }

  /** Drops finished deliveries past the retention, then events no delivery names any more (in bounded batches). */
  private async cleanup(): Promise<void> {
    this.lastCleanup = Date.now();
    const cut = new Date(this.clock.now().getTime() - RETENTION_MS);
    await this.repo.purgeFinished(cut);
  }
}
