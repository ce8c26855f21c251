import { Injectable } from '@nestjs/common';
import type { EntityManager, QueryRunner } from 'typeorm';
import { Clock } from '../../base/common/clock.js';
import { EventsRepository } from './events.repository.js';

/** A change to tell webhooks about; `data` becomes the message's `data` as it is. */
export interface WebhookEvent {
  systemDomainId: string;
  /** The changed object's id (a UUID), or null. */
  objectId: string | null;
  realm: string | null;
  operation: string;
  eventType: string;
  data: Record<string, unknown>;
  /**
   * The id of the request that made the change (its X-Request-Id): `AuthContext.requestId`, or `req.id` on
   * public routes; null for work outside a request (the worker, start-up).
   */
  requestId: string | null;
}

/**
 * The transactional outbox of webhook events. `record(em, event)` inside the change's own transaction: the
 * event and its deliveries commit or roll back with the change (a rolled-back change emits nothing; a
 * committed one survives a crash right after the commit). Fan-out happens here, at record time, so the
 * webhooks that receive an event are the ones registered when the change committed, and the worker only
 * ever reads one queue. After a commit that recorded deliveries this instance's worker is nudged, so
 * delivery starts at once instead of at the next poll.
 */
@Injectable()
export class WebhookEventsService {
  /** Open transactions that recorded deliveries: their commit nudges the worker. */
  private readonly recorded = new WeakSet<QueryRunner>();
  private listener: () => void = () => undefined;

  constructor(
    private readonly clock: Clock,
    private readonly repo: EventsRepository,
  ) {
    repo.afterEveryCommit((runner) => {
      if (this.recorded.delete(runner)) this.listener();
    });
  }

  async record(em: EntityManager, event: WebhookEvent): Promise<void> {
    const queued = await this.repo.recordEvent(em, { ...event, at: this.clock.now() });
    this.deliveriesRecorded(em, queued);
  }

  /**
   * For writers that fan events out in their own statement (the audit trail): `count` deliveries were just
   * recorded through `em`, so the worker is nudged after its commit (or now, outside a transaction).
   */
  deliveriesRecorded(em: EntityManager, count: number): void {
    if (count === 0) return;
    const runner = em.queryRunner;
    if (runner?.isTransactionActive) this.recorded.add(runner);
    else this.listener(); // already committed (no transaction around it)
  }

  /** The worker of this instance: told when deliveries were committed. */
  onCommitted(listener: () => void): void {
    this.listener = listener;
  }
}
