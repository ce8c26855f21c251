import { Injectable } from '@nestjs/common';
import type { EntityManager, QueryRunner } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';

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

/** The event columns `recordEvent` writes, in order. */
export interface EventValues {
  systemDomainId: string;
  objectId: string | null;
  realm: string | null;
  operation: string;
  eventType: string;
  requestId: string | null;
  data: Record<string, unknown>;
  at: Date;
}

/** The outbox's statements (webhook_events, webhook_deliveries), so WebhookEventsService holds the rules. */
@Injectable()
export class EventsRepository extends FeatureRepository {
  /** `listener` runs after every commit on this data source, with the query runner that committed. */
  afterEveryCommit(listener: (runner: QueryRunner) => void): void {
    this.ds.subscribers.push({ afterTransactionCommit: ({ queryRunner }) => listener(queryRunner) });
  }

  /** The event and one delivery per matching webhook: how many deliveries were queued. */
  async recordEvent(em: EntityManager, e: EventValues): Promise<number> {
    // raw: a CTE that matches, inserts the event only when something matches, and fans out, in one round trip
    const rows: unknown[] = await em.query(RECORD_SQL, [
      e.systemDomainId,
      e.objectId,
      e.realm,
      e.operation,
      e.eventType,
      e.requestId,
      JSON.stringify(e.data),
      e.at,
    ]);
    return rows.length;
  }
}
