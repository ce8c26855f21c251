import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { Batcher } from '../common/batcher.js';
import { Clock } from '../common/clock.js';
import { preparedQuery } from '../database/prepared-query.js';
import { returningRows } from '../database/returning-rows.js';
import { WebhookEventsService } from '../webhooks/webhook-events.service.js';
import type { AuthContext } from '../common/auth/auth-context.js';
import { fromAuth, type AuditOrigin } from './audit-origin.js';
import type { AuditAction } from './audit-actions.js';
import { auditDetails } from './audit-details.js';
import { Metrics } from '../metrics/metrics.service.js';

export interface AuditEntry {
  systemDomainId: string | null;
  action: AuditAction;
  targetType: string | null;
  targetId: string | null;
  outcome: 'success' | 'failure';
  /** Non-secret facts; keys that name secrets are dropped (audit-details.ts). */
  details?: Record<string, unknown>;
}

/**
 * Any number of records in one statement of fixed text (column arrays through unnest; a prepared statement
 * outside transactions), together with their webhook events: an event row for each record of a domain with
 * at least one matching webhook (ENABLED or FAILING, event_type `audit`, realm `audit` or none, operation
 * the action or none, no object id), and one delivery per matching webhook — the same fan-out as
 * WebhookEventsService.record, for every record at once. Ids are made by the caller, so each event carries
 * its record's id without a second round trip. Returns one row per delivery.
 */
const RECORD_SQL = `
  WITH v AS (
    SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[],
                         $8::text[], $9::text[], $10::text[], $11::text[], $12::jsonb[], $13::timestamptz[],
                         $14::jsonb[])
      AS v(id, system_domain_id, actor_user_id, actor_app_id, actor_kind, action, target_type, target_id,
           outcome, request_id, client_address, details, date_created, event_data)
  ), audited AS (
    INSERT INTO audit_events (id, system_domain_id, actor_user_id, actor_app_id, actor_kind, action,
                              target_type, target_id, outcome, request_id, client_address, details, date_created)
    SELECT id, system_domain_id, actor_user_id, actor_app_id, actor_kind, action, target_type, target_id,
           outcome, request_id, client_address, details, date_created FROM v
  ), targets AS (
    SELECT v.id AS audit_id, w.id AS webhook_id FROM v JOIN webhooks w
        ON w.system_domain_id = v.system_domain_id AND w.event_type = 'audit'
       AND w.status IN ('ENABLED', 'FAILING') AND (w.realm IS NULL OR w.realm = 'audit')
       AND (w.operation IS NULL OR w.operation = v.action) AND w.object_id IS NULL
  ), event AS (
    INSERT INTO webhook_events (system_domain_id, object_id, realm, operation, event_type, request_id, data,
                                date_created)
    SELECT v.system_domain_id, NULL, 'audit', v.action, 'audit', v.request_id, v.event_data, v.date_created
      FROM v WHERE v.id IN (SELECT audit_id FROM targets)
    RETURNING id, (data->>'id')::uuid AS audit_id, date_created
  )
  INSERT INTO webhook_deliveries (webhook_id, event_id, next_attempt_at, queued_at)
  SELECT t.webhook_id, event.id, event.date_created, event.date_created
    FROM event JOIN targets t ON t.audit_id = event.audit_id
  RETURNING id`;

interface AuditRow {
  id: string;
  entry: AuditEntry;
  origin: AuditOrigin;
  details: Record<string, unknown>;
  at: Date;
}

/** The statement's parameters for these rows (see RECORD_SQL). */
function recordParams(rows: AuditRow[]): unknown[] {
  const col = <T>(f: (r: AuditRow) => T) => rows.map(f);
  return [
    col((r) => r.id),
    col((r) => r.entry.systemDomainId),
    col((r) => r.origin.actorUserId),
    col((r) => r.origin.actorAppId),
    col((r) => r.origin.actorKind),
    col((r) => r.entry.action),
    col((r) => r.entry.targetType),
    col((r) => r.entry.targetId),
    col((r) => r.entry.outcome),
    col((r) => r.origin.requestId),
    col((r) => r.origin.clientAddress),
    col((r) => JSON.stringify(r.details)),
    col((r) => r.at.toISOString()),
    // the webhook message's data, as WebhookEventsService would have recorded it
    col(({ id, entry, origin, details }) =>
      JSON.stringify({
        id,
        action: entry.action,
        outcome: entry.outcome,
        target_type: entry.targetType,
        target_id: entry.targetId,
        actor: { user_id: origin.actorUserId, app_id: origin.actorAppId, kind: origin.actorKind },
        client_address: origin.clientAddress,
        details,
      }),
    ),
  ];
}

/**
 * Writes the audit trail. `record(em, origin, entry)` inside the change's own transaction, like the webhook
 * outbox it also feeds: the record and its webhook event (`event_type` audit, realm `audit`, operation the
 * action) commit or roll back with the change. A sign-in refusal changes nothing but the guessing-defence
 * count, so it is recorded on its own (`em` = the data source's manager).
 */
@Injectable()
export class AuditService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly events: WebhookEventsService,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  /**
   * A record of its own, outside any transaction: an event that changes nothing else (a refused sign-in) or
   * whose change another component has already committed (a PAT, issued by the token issuer's group insert).
   */
  recordAlone(origin: AuditOrigin, entry: AuditEntry): Promise<void> {
    return this.ds.transaction((em) => this.record(em, origin, entry));
  }

  /** An authenticated caller's change in their own domain (the common case: one line at the call site). */
  change(
    em: EntityManager,
    auth: AuthContext,
    action: AuditAction,
    target: { type: string; id: string | null },
    details?: Record<string, unknown>,
  ): Promise<void> {
    return this.record(em, fromAuth(auth), {
      systemDomainId: auth.systemDomainId,
      action,
      targetType: target.type,
      targetId: target.id,
      outcome: 'success',
      details,
    });
  }

  /**
   * One statement (record and webhook fan-out, RECORD_SQL). Outside a transaction (`em` is the data
   * source's manager: a grant's token, already committed by the issuer's group insert) records written in
   * the same event-loop turn share that statement and its commit (group commit, common/batcher.ts); each
   * caller still waits for its own record to be durable.
   */
  async record(em: EntityManager, origin: AuditOrigin, entry: AuditEntry): Promise<void> {
    const row: AuditRow = {
      id: randomUUID(),
      entry,
      origin,
      details: auditDetails(entry.details ?? {}),
      at: this.clock.now(),
    };
    if (em === this.ds.manager) {
      await this.batch.add(row);
    } else {
      const deliveries: unknown[] = returningRows(await em.query(RECORD_SQL, recordParams([row])));
      this.events.deliveriesRecorded(em, deliveries.length);
    }
    this.metrics.audited(entry.action, entry.outcome, row.details);
  }

  private readonly batch = new Batcher<AuditRow, void>(async (rows) => {
    const deliveries = returningRows(
      await preparedQuery(this.ds, 'portcullis_audit_record', RECORD_SQL, recordParams(rows)),
    );
    this.events.deliveriesRecorded(this.ds.manager, deliveries.length);
    return rows.map(() => undefined);
  });
}
