import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { type ChangeRecorders, recordDomainChange } from '../users/domain-change.js';

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
export function recordGroupChange(
  em: EntityManager,
  deps: ChangeRecorders,
  auth: AuthContext,
  c: GroupChange,
): Promise<void> {
  return recordDomainChange(em, deps, auth, {
    action: 'group.changed',
    realm: c.realm,
    objectId: c.groupId,
    operation: c.operation,
    eventType: 'groups',
    data: c.data,
    via: c.via,
  });
}
