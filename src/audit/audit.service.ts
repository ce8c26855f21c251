import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
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

const INSERT_SQL = `
  INSERT INTO audit_events (system_domain_id, actor_user_id, actor_app_id, actor_kind, action, target_type,
                            target_id, outcome, request_id, client_address, details, date_created)
  VALUES ($1::uuid, $2::uuid, $3::uuid, $4::text, $5::text, $6::text, $7::text, $8::text, $9::text, $10::text,
          $11::jsonb, $12::timestamptz)
  RETURNING id, date_created`;

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

  async record(em: EntityManager, origin: AuditOrigin, entry: AuditEntry): Promise<void> {
    const details = auditDetails(entry.details ?? {});
    const rows = returningRows<{ id: string }>(
      await em.query(INSERT_SQL, [
        entry.systemDomainId,
        origin.actorUserId,
        origin.actorAppId,
        origin.actorKind,
        entry.action,
        entry.targetType,
        entry.targetId,
        entry.outcome,
        origin.requestId,
        origin.clientAddress,
        JSON.stringify(details),
        this.clock.now(),
      ]),
    );
    this.metrics.audited(entry.action, entry.outcome, details);
    if (!entry.systemDomainId) return; // webhooks belong to a domain: nobody to tell
    await this.events.record(em, {
      systemDomainId: entry.systemDomainId,
      objectId: null,
      realm: 'audit',
      operation: entry.action,
      eventType: 'audit',
      requestId: origin.requestId,
      data: {
        id: rows[0]?.id ?? null,
        action: entry.action,
        outcome: entry.outcome,
        target_type: entry.targetType,
        target_id: entry.targetId,
        actor: { user_id: origin.actorUserId, app_id: origin.actorAppId, kind: origin.actorKind },
        client_address: origin.clientAddress,
        details,
      },
    });
  }
}
