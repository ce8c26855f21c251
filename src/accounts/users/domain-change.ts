import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AuditAction } from '../../delivery/audit/audit-actions.js';
import type { AuditService } from '../../delivery/audit/audit.service.js';
import type { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';

/** The services a change is recorded with. */
export interface ChangeRecorders {
  audit: AuditService;
  events: WebhookEventsService;
}

/** A change to one object of the caller's domain, as its audit record and webhook event tell it. */
export interface DomainChange {
  /** The audit action. */
  action: AuditAction;
  /** The audit record's target type, and the webhook event's realm. */
  realm: string;
  objectId: string;
  operation: string;
  /** The webhook event type (the webhooks that hear it). */
  eventType: string;
  data: Record<string, unknown>;
  /** The channel the change came through, when not the feature's own API (`scim`). */
  via?: string;
}

/**
 * The audit record (the operation, and the channel when not the API) and the webhook event of a change, in
 * the change's transaction.
 */
export async function recordDomainChange(
  em: EntityManager,
  deps: ChangeRecorders,
  auth: AuthContext,
  c: DomainChange,
): Promise<void> {
  await deps.audit.change(
    em,
    auth,
    c.action,
    { type: c.realm, id: c.objectId },
    { operation: c.operation, ...(c.via ? { via: c.via } : {}) },
  );
  await deps.events.record(em, {
    systemDomainId: auth.systemDomainId,
    objectId: c.objectId,
    realm: c.realm,
    operation: c.operation,
    eventType: c.eventType,
    data: c.data,
    requestId: auth.requestId,
  });
}
