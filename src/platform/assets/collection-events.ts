import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';

/** What changed: the collection itself, what it contains, or its ACL. */
export type CollectionOperation =
  'create' | 'update' | 'delete' | 'restore' | 'purge' | 'content_add' | 'content_remove' | 'acl_change';

/**
 * A collection's change, recorded in the change's own transaction as assets record theirs: a webhook event
 * (event_type `collections`, realm `collection`, the operation) and an audit record (`collection.changed`,
 * with the operation). The data is the collection's view without the caller's permissions (they describe the
 * caller, not the collection), or the content entry or ACL entry (with its permissions) that changed.
 */
@Injectable()
export class CollectionEvents {
  constructor(
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
  ) {}

  async record(
    em: EntityManager,
    auth: AuthContext,
    id: string,
    operation: CollectionOperation,
    data: Record<string, unknown>,
  ): Promise<void> {
    const { permissions: _p, ...rest } = data;
    // an ACL entry's permissions are what changed; a collection view's describe the caller
    const payload = operation === 'acl_change' ? data : rest;
    await this.events.record(em, {
      systemDomainId: auth.systemDomainId,
      objectId: id,
      realm: 'collection',
      operation,
      eventType: 'collections',
      data: payload,
      requestId: auth.requestId,
    });
    await this.audit.change(em, auth, 'collection.changed', { type: 'collection', id }, { operation });
  }
}
