import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock.js';
import { AuditRepository } from './audit.repository.js';
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
 * Writes the audit trail. `record(em, origin, entry)` inside the change's own transaction, like the webhook
 * outbox it also feeds: the record and its webhook event (`event_type` audit, realm `audit`, operation the
 * action) commit or roll back with the change. A sign-in refusal changes nothing but the guessing-defence
 * count, so it is recorded on its own (`em` = the data source's manager).
 */
@Injectable()
export class AuditService {
  constructor(
    private readonly repo: AuditRepository,
    private readonly events: WebhookEventsService,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  /**
   * A record of its own, outside any transaction: an event that changes nothing else (a refused sign-in) or
   * whose change another component has already committed (a PAT, issued by the token issuer's group insert).
   */
  recordAlone(origin: AuditOrigin, entry: AuditEntry): Promise<void> {
    return this.repo.transaction((em) => this.record(em, origin, entry));
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
    const id = await this.repo.insert(em, {
      systemDomainId: entry.systemDomainId,
      actorUserId: origin.actorUserId,
      actorAppId: origin.actorAppId,
      actorKind: origin.actorKind,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      outcome: entry.outcome,
      requestId: origin.requestId,
      clientAddress: origin.clientAddress,
      details,
      at: this.clock.now(),
    });
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
        id,
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
