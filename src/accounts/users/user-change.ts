import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AuditService } from '../../delivery/audit/audit.service.js';
import type { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';

const ACTION = { create: 'user.created', update: 'user.changed', delete: 'user.deleted' } as const;

/** A change to a user of the caller's domain, as its audit record and webhook event tell it. */
export interface UserChange {
  userId: string;
  operation: keyof typeof ACTION;
  data: Record<string, unknown>;
  /** The channel the change came through, when not the users API (`scim`). */
  via?: string;
}

/** The audit record and webhook event (realm user, event type users) of a change, in the change's transaction. */
export async function recordUserChange(
  em: EntityManager,
  deps: { audit: AuditService; events: WebhookEventsService },
  auth: AuthContext,
  c: UserChange,
): Promise<void> {
  await deps.audit.change(
    em,
    auth,
    ACTION[c.operation],
    { type: 'user', id: c.userId },
    { operation: c.operation, ...(c.via ? { via: c.via } : {}) },
  );
  await deps.events.record(em, {
    systemDomainId: auth.systemDomainId,
    objectId: c.userId,
    realm: 'user',
    operation: c.operation,
    eventType: 'users',
    data: c.data,
    requestId: auth.requestId,
  });
}
