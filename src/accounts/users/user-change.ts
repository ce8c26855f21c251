import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { type ChangeRecorders, recordDomainChange } from './domain-change.js';

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
export function recordUserChange(
  em: EntityManager,
  deps: ChangeRecorders,
  auth: AuthContext,
  c: UserChange,
): Promise<void> {
  return recordDomainChange(em, deps, auth, {
    action: ACTION[c.operation],
    realm: 'user',
    objectId: c.userId,
    operation: c.operation,
    eventType: 'users',
    data: c.data,
    via: c.via,
  });
}
