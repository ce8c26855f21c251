import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type EntitySubscriberInterface, type QueryRunner } from 'typeorm';
import { Clock } from '../common/clock.js';

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
 * One statement: the matching webhooks (same domain, ENABLED or FAILING, same event_type; realm, operation
 * and object_id equal where the webhook names them), the event row only when at least one matches, and one
 * delivery per matching webhook. A change nobody listens to costs one indexed read and writes nothing.
 */
const RECORD_SQL = `
  WITH targets AS (
    SELECT id FROM webhooks
     WHERE system_domain_id = $1::uuid AND event_type = $5::text AND status IN ('ENABLED', 'FAILING')
       AND (realm IS NULL OR realm = $3::text)
       AND (operation IS NULL OR operation = $4::text)
       AND (object_id IS NULL OR object_id = $2::uuid)
  ), event AS (
    INSERT INTO webhook_events (system_domain_id, object_id, realm, operation, event_type, request_id, data, date_created)
    SELECT $1::uuid, $2::uuid, $3::text, $4::text, $5::text, $6::text, $7::jsonb, $8::timestamptz WHERE EXISTS (SELECT 1 FROM targets)
    RETURNING id
  )
  INSERT INTO webhook_deliveries (webhook_id, event_id, next_attempt_at, queued_at)
  SELECT t.id, event.id, $8::timestamptz, $8::timestamptz FROM targets t CROSS JOIN event
  RETURNING id`;

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
    @InjectDataSource() ds: DataSource,
    private readonly clock: Clock,
  ) {
    // a subscriber with only afterTransactionCommit: TypeORM calls it for every commit of this data source
    const subscriber: EntitySubscriberInterface = {
      afterTransactionCommit: ({ queryRunner }) => {
        if (this.recorded.delete(queryRunner)) this.listener();
      },
    };
    ds.subscribers.push(subscriber);
  }

  async record(em: EntityManager, event: WebhookEvent): Promise<void> {
    const rows: unknown[] = await em.query(RECORD_SQL, [
      event.systemDomainId,
      event.objectId,
      event.realm,
      event.operation,
      event.eventType,
      event.requestId,
      JSON.stringify(event.data),
      this.clock.now(),
    ]);
    this.deliveriesRecorded(em, rows.length);
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
