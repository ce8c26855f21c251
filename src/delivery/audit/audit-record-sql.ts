import type { AuditOrigin } from './audit-origin.js';
import type { AuditEntry } from './audit.service.js';

/**
 * The audit trail's row format as SQL: what the audit repository writes, and what other features' statements
 * write in the same statement as their own change (the mint's token and its record). Public, so that no
 * feature reaches into the audit repository.
 */

/**
 * The CTEs that write any number of records (column arrays through unnest, parameters `$first` to
 * `$first + 13`) together with their webhook events: an event row for each record of a domain with at least
 * one matching webhook (ENABLED or FAILING, event_type `audit`, realm `audit` or none, operation the action or
 * none, no object id), and one delivery per matching webhook — the same fan-out as
 * WebhookEventsService.record, for every record at once. Ids are made by the caller, so each event carries
 * its record's id without a second round trip. The last CTE, `audit_deliveries`, returns one row per
 * delivery.
 *
 * `subjectIn`: a statement that also writes what the records are about (a token and its record: the credentials
 * module's INSERT_TOKENS_AUDITED_SQL) passes one more array, `$first + 14`, with each record's subject id, and
 * a set of ids (`SELECT id FROM …` of its own CTE): a record is written only if its subject is in the set, so
 * a subject the statement refused leaves no record, and the rest commit with their records or not at all.
 */
export function auditRecordCtes(first: number, subjectIn?: string): string {
  const p = (i: number) => `$${first + i}`;
  return `audit_v AS (
    SELECT * FROM unnest(${p(0)}::uuid[], ${p(1)}::uuid[], ${p(2)}::uuid[], ${p(3)}::uuid[], ${p(4)}::text[],
                         ${p(5)}::text[], ${p(6)}::text[], ${p(7)}::text[], ${p(8)}::text[], ${p(9)}::text[],
                         ${p(10)}::text[], ${p(11)}::jsonb[], ${p(12)}::timestamptz[],
                         ${p(13)}::jsonb[]${subjectIn ? `, ${p(14)}::uuid[]` : ''})
      AS v(id, system_domain_id, actor_user_id, actor_app_id, actor_kind, action, target_type, target_id,
           outcome, request_id, client_address, details, date_created, event_data${subjectIn ? ', subject_id' : ''})
    ${subjectIn ? `WHERE v.subject_id IN (${subjectIn})` : ''}
  ), audit_inserted AS (
    INSERT INTO audit_events (id, system_domain_id, actor_user_id, actor_app_id, actor_kind, action,
                              target_type, target_id, outcome, request_id, client_address, details, date_created)
    SELECT id, system_domain_id, actor_user_id, actor_app_id, actor_kind, action, target_type, target_id,
           outcome, request_id, client_address, details, date_created FROM audit_v
  ), audit_targets AS (
    SELECT v.id AS audit_id, w.id AS webhook_id FROM audit_v v JOIN webhooks w
        ON w.system_domain_id = v.system_domain_id AND w.event_type = 'audit'
       AND w.status IN ('ENABLED', 'FAILING') AND (w.realm IS NULL OR w.realm = 'audit')
       AND (w.operation IS NULL OR w.operation = v.action) AND w.object_id IS NULL
  ), audit_event AS (
    INSERT INTO webhook_events (system_domain_id, object_id, realm, operation, event_type, request_id, data,
                                date_created)
    SELECT v.system_domain_id, NULL, 'audit', v.action, 'audit', v.request_id, v.event_data, v.date_created
      FROM audit_v v WHERE v.id IN (SELECT audit_id FROM audit_targets)
    RETURNING id, (data->>'id')::uuid AS audit_id, date_created
  ), audit_deliveries AS (
    INSERT INTO webhook_deliveries (webhook_id, event_id, next_attempt_at, queued_at)
    SELECT t.webhook_id, e.id, e.date_created, e.date_created
      FROM audit_event e JOIN audit_targets t ON t.audit_id = e.audit_id
    RETURNING id
  )`;
}

export interface AuditRecord {
  id: string;
  entry: AuditEntry;
  origin: AuditOrigin;
  details: Record<string, unknown>;
  at: Date;
}

/** auditRecordCtes' parameters for these rows, in order (without the subject ids). */
export function auditRecordParams(rows: AuditRecord[]): unknown[] {
  const col = <T>(f: (r: AuditRecord) => T) => rows.map(f);
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
