import { Injectable } from '@nestjs/common';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { insertRow } from '../../base/database/insert-row.js';
import { leaseClaimSql } from '../../base/database/lease-claim.js';
import { WebhookDeliveryEntity } from '../../base/model/webhook-delivery.entity.js';
import { WebhookEventEntity } from '../../base/model/webhook-event.entity.js';
import { WebhookEntity } from '../../base/model/webhook.entity.js';

/**
 * Claims due deliveries and takes them out of the queue (at most `limit` at a time, each in a statement of its
 * own; leaseClaimSql: `FOR UPDATE SKIP LOCKED` plus the `locked_until` lease), only of webhooks that still
 * deliver, while the HTTP request runs outside any transaction.
 */
const CLAIM_SQL = leaseClaimSql({
  table: 'webhook_deliveries',
  alias: 'd',
  set: 'last_attempt_at = $1',
  candidateJoin: 'JOIN webhooks w2 ON w2.id = q.webhook_id',
  candidateWhere: "w2.status IN ('ENABLED', 'FAILING')",
  from: 'webhooks w, webhook_events e',
  where: 'w.id = d.webhook_id AND e.id = d.event_id',
  returning: `d.id, d.attempts, d.queued_at, d.webhook_id, w.url, w.headers_sealed, w.secret_sealed,
            e.system_domain_id, e.object_id, e.realm, e.operation, e.event_type, e.request_id, e.data`,
});

/** A claimed delivery with what its attempt needs (the webhook's target and sealed secrets, the event). */
export interface ClaimedDelivery {
  id: string;
  attempts: number;
  queued_at: Date | string;
  webhook_id: string;
  url: string;
  headers_sealed: string | null;
  secret_sealed: string;
  system_domain_id: string;
  object_id: string | null;
  realm: string | null;
  operation: string;
  event_type: string;
  request_id: string | null;
  data: Record<string, unknown>;
}

/** A failed attempt as the webhook's failure counters record it. */
export interface FailureValues {
  webhookId: string;
  now: Date;
  error: string;
  payload: object;
  failingAfter: number;
  /** A webhook failing since this instant (or earlier) is disabled. */
  disableBefore: Date;
}

/**
 * Every statement on webhooks, their deliveries and events: the registration API's reads and writes, the
 * worker's claim and its bookkeeping. The services hold the rules (who sees what, when to give up, what a
 * status becomes) and can be unit-tested with a fake of this class. Every method that belongs to a larger
 * change takes the transaction's EntityManager (`em`, the data source's manager where it is optional).
 */
@Injectable()
export class WebhooksRepository extends FeatureRepository {
  /** The domain's webhooks not deleted, with the list's filters, for pageList. */
  search(
    systemDomainId: string,
    f: { status?: string; eventType?: string },
  ): SelectQueryBuilder<WebhookEntity> {
    const qb = this.domainQuery(WebhookEntity, 'w', systemDomainId).andWhere("w.status <> 'DELETED'");
    if (f.status) qb.andWhere('w.status = :status', { status: f.status });
    if (f.eventType) qb.andWhere('w.event_type = :eventType', { eventType: f.eventType });
    return qb;
  }

  /** A webhook of the domain, whatever its status (DELETED included), or null. */
  inDomain(
    systemDomainId: string,
    id: string,
    em: EntityManager = this.ds.manager,
  ): Promise<WebhookEntity | null> {
    return em.findOneBy(WebhookEntity, { id, system_domain_id: systemDomainId });
  }

  /** Inserts a new webhook (its id generated here): the entity as inserted. */
  insertWebhook(em: EntityManager, values: Partial<WebhookEntity>): Promise<WebhookEntity> {
    return insertRow(em, WebhookEntity, values);
  }

  async updateWebhook(em: EntityManager, id: string, changes: Partial<WebhookEntity>): Promise<void> {
    await em.update(WebhookEntity, { id }, changes);
  }

  /** A webhook's deliveries, of one status when given, for pageList. */
  deliveriesOf(webhookId: string, status: string | undefined): SelectQueryBuilder<WebhookDeliveryEntity> {
    const qb = this.ds
      .getRepository(WebhookDeliveryEntity)
      .createQueryBuilder('d')
      .where('d.webhook_id = :id', { id: webhookId });
    if (status) qb.andWhere('d.status = :status', { status });
    return qb;
  }

  /** One delivery of the webhook, or null. */
  delivery(em: EntityManager, webhookId: string, deliveryId: string): Promise<WebhookDeliveryEntity | null> {
    return em.findOneBy(WebhookDeliveryEntity, { id: deliveryId, webhook_id: webhookId });
  }

  /** Queues a delivery again, due `now` (whatever its state): the delivery as it is now. */
  async requeueDelivery(em: EntityManager, deliveryId: string, now: Date): Promise<WebhookDeliveryEntity> {
    await em.update(
      WebhookDeliveryEntity,
      { id: deliveryId },
      { status: 'PENDING', next_attempt_at: now, queued_at: now, delivered_at: null },
    );
    return em.findOneByOrFail(WebhookDeliveryEntity, { id: deliveryId });
  }

  /** The events with these ids (each once). */
  eventsByIds(ids: string[], em: EntityManager = this.ds.manager): Promise<WebhookEventEntity[]> {
    return em
      .getRepository(WebhookEventEntity)
      .createQueryBuilder('e')
      .where('e.id IN (:...ids)', { ids: [...new Set(ids)] })
      .getMany();
  }

  async claimDue(now: Date, lease: Date, limit: number): Promise<ClaimedDelivery[]> {
    // raw: FOR UPDATE SKIP LOCKED with a lease, UPDATE … FROM … RETURNING (leaseClaimSql)
    const [rows] = (await this.ds.query(CLAIM_SQL, [now, lease, limit])) as [ClaimedDelivery[], number];
    return rows;
  }

  /** Hands a claimed delivery back to the queue, its attempt not counted (shutting down). */
  async handBack(deliveryId: string): Promise<void> {
    // raw: attempts - 1 computed in place, guarded by the status in the same statement
    await this.ds.query(
      `UPDATE webhook_deliveries SET locked_until = NULL, attempts = attempts - 1
        WHERE id = $1 AND status = 'PENDING'`,
      [deliveryId],
    );
  }

  async markDelivered(
    deliveryId: string,
    at: Date,
    status: number | null,
    durationMs: number,
  ): Promise<void> {
    // raw: kept beside the worker's other statements on the queue (a plain UPDATE by id)
    await this.ds.query(
      `UPDATE webhook_deliveries
          SET status = 'DELIVERED', delivered_at = $2, locked_until = NULL, response_code = $3,
              duration_ms = $4, error = NULL
        WHERE id = $1`,
      [deliveryId, at, status, durationMs],
    );
  }

  /** Clears a webhook's failures after a success: its status when there was something to clear. */
  async clearFailures(webhookId: string): Promise<string | undefined> {
    // raw: a CASE on the current status and UPDATE … RETURNING, writing nothing in the common case
    const [rows] = (await this.ds.query(
      `UPDATE webhooks
          SET status = CASE WHEN status = 'FAILING' THEN 'ENABLED' ELSE status END,
              consecutive_failures = 0, first_failed_at = NULL
        WHERE id = $1 AND (consecutive_failures > 0 OR status = 'FAILING')
        RETURNING status`,
      [webhookId],
    )) as [{ status: string }[], number];
    return rows[0]?.status;
  }

  async recordAttemptFailed(
    em: EntityManager,
    deliveryId: string,
    status: 'PENDING' | 'FAILED',
    next: Date,
    r: { status: number | null; durationMs: number; error: string },
  ): Promise<void> {
    // raw: guarded by the status in the same statement (a delivery given up meanwhile stays so)
    await em.query(
      `UPDATE webhook_deliveries
          SET status = $2, next_attempt_at = $3, locked_until = NULL, response_code = $4,
              duration_ms = $5, error = $6
        WHERE id = $1 AND status = 'PENDING'`,
      [deliveryId, status, next, r.status, r.durationMs, r.error],
    );
  }

  /** Counts a failure on the webhook: its new status and count, or undefined when it no longer delivers. */
  async countFailure(
    em: EntityManager,
    f: FailureValues,
  ): Promise<{ status: string; consecutive_failures: number } | undefined> {
    // raw: counter increment and the status decided from it in one UPDATE … RETURNING (no read-modify-write)
    const [rows] = (await em.query(
      `UPDATE webhooks
          SET consecutive_failures = consecutive_failures + 1,
              first_failed_at = COALESCE(first_failed_at, $2),
              last_error = $3, last_payload = $4::jsonb,
              status = CASE
                WHEN consecutive_failures + 1 >= $5 AND COALESCE(first_failed_at, $2) <= $6 THEN 'DISABLED'
                WHEN consecutive_failures + 1 >= $5 THEN 'FAILING'
                ELSE status END
        WHERE id = $1 AND status IN ('ENABLED', 'FAILING')
        RETURNING status, consecutive_failures`,
      [f.webhookId, f.now, f.error, JSON.stringify(f.payload), f.failingAfter, f.disableBefore],
    )) as [{ status: string; consecutive_failures: number }[], number];
    return rows[0];
  }

  /** Gives up a webhook's pending deliveries, appending why to each one's error. */
  async giveUpPending(em: EntityManager, webhookId: string, why: 'disabled' | 'deleted'): Promise<void> {
    // raw: the error is extended from its own value (COALESCE(error, …) || …) in one statement
    await em.query(
      `UPDATE webhook_deliveries SET status = 'FAILED', locked_until = NULL,
              error = COALESCE(error, 'not sent') || $2
        WHERE webhook_id = $1 AND status = 'PENDING'`,
      [webhookId, ` (given up: the webhook was ${why})`],
    );
  }

  /** Drops finished deliveries older than `cut`, then events no delivery names any more (bounded batches). */
  async purgeFinished(cut: Date): Promise<void> {
    // raw: DELETE of a LIMITed subselect (bounded batches; DELETE has no LIMIT in PostgreSQL)
    await this.ds.query(
      `DELETE FROM webhook_deliveries WHERE id IN (
         SELECT id FROM webhook_deliveries
          WHERE status IN ('DELIVERED', 'FAILED') AND COALESCE(last_attempt_at, date_created) < $1
          LIMIT 1000)`,
      [cut],
    );
    // raw: NOT EXISTS anti-join inside a LIMITed subselect
    await this.ds.query(
      `DELETE FROM webhook_events WHERE id IN (
         SELECT e.id FROM webhook_events e
          WHERE e.date_created < $1
            AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
          LIMIT 1000)`,
      [cut],
    );
  }
}
