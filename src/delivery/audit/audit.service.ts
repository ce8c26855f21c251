import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { Batcher } from '../../base/common/batcher.js';
import { Clock } from '../../base/common/clock.js';
import { AuditRepository } from './audit.repository.js';
import type { AuditRecord } from './audit-record-sql.js';
import { WebhookEventsService } from '../events/webhook-events.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { fromAuth, type AuditOrigin } from './audit-origin.js';
import type { AuditAction } from './audit-actions.js';
import { auditDetails } from './audit-details.js';
import { Metrics } from '../../base/common/metrics/metrics.service.js';

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

  /**
   * One statement (record and webhook fan-out, AuditRepository). Outside a transaction (`em` is the data
   * source's manager: a grant's token, already committed by the issuer's group insert) records written in
   * the same event-loop turn share that statement and its commit (group commit, common/batcher.ts); each
   * caller still waits for its own record to be durable.
   */
  async record(em: EntityManager, origin: AuditOrigin, entry: AuditEntry): Promise<void> {
    const row = this.prepare(origin, entry);
    if (em === this.repo.manager) {
      await this.batch.add(row);
    } else {
      this.recorded(em, [row], await this.repo.record(em, [row]));
    }
  }

  /**
   * A record as it will be written, for a statement that writes it together with what it is about (the
   * credentials module's token rows, through AuditRepository's auditRecordCtes); call `recorded` once it is.
   */
  prepare(origin: AuditOrigin, entry: AuditEntry): AuditRecord {
    return {
      id: randomUUID(),
      entry,
      origin,
      details: auditDetails(entry.details ?? {}),
      at: this.clock.now(),
    };
  }

  /**
   * `rows` were written through `em` with `deliveries` webhook deliveries: the delivery worker is nudged
   * (after the transaction's commit, if any) and the records counted in the metrics.
   */
  recorded(em: EntityManager, rows: AuditRecord[], deliveries: number): void {
    this.events.deliveriesRecorded(em, deliveries);
    for (const row of rows) this.metrics.audited(row.entry.action, row.entry.outcome, row.details);
  }

  private readonly batch = new Batcher<AuditRecord, void>(async (rows) => {
    this.recorded(this.repo.manager, rows, await this.repo.recordCommitted(rows));
    return rows.map(() => undefined);
  });
}
