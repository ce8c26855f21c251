import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { AuditService } from '../../delivery/audit/audit.service.js';
import type { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';

/** A change to a group or its members, as its audit record and webhook event tell it. */
export interface GroupChange {
  realm: 'group' | 'group_member';
  groupId: string;
  operation: 'create' | 'update' | 'delete';
  data: Record<string, unknown>;
  /** The channel the change came through, when not the groups API (`scim`). */
  via?: string;
}

/**
 * The audit record and webhook event of a change to a group or its members, in the change's transaction: a
 * membership's object_id is its group's id (a membership has no id of its own), so a webhook on one group
 * hears both. Group roles and memberships are what a user may do: every change is one the trail keeps.
 */
export async function recordGroupChange(
  em: EntityManager,
  deps: { audit: AuditService; events: WebhookEventsService },
  auth: AuthContext,
  c: GroupChange,
): Promise<void> {
  await deps.audit.change(
    em,
    auth,
    'group.changed',
    { type: c.realm, id: c.groupId },
    { operation: c.operation, ...(c.via ? { via: c.via } : {}) },
  );
  await deps.events.record(em, {
    systemDomainId: auth.systemDomainId,
    objectId: c.groupId,
    realm: c.realm,
    operation: c.operation,
    eventType: 'groups',
    data: c.data,
    requestId: auth.requestId,
  });
}
