import type { EntityManager } from 'typeorm';
import type { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { GroupsRepository } from './groups.repository.js';

/** The SAML attributes an identity provider names a person's groups in (the first one present is read). */
export const GROUP_ATTRIBUTES = [
  'groups',
  'group',
  'memberOf',
  'http://schemas.microsoft.com/ws/2008/06/identity/claims/groups',
  'http://schemas.xmlsoap.org/claims/Group',
];

/** At most this many group names of one assertion are read (an assertion is size-bounded anyway). */
const MAX_NAMES = 500;

/**
 * Applies a domain's group mappings at a single sign-on, inside the sign-on's transaction: the person joins
 * every group a mapping of an asserted name points at, and leaves every mapped group none of whose names
 * was asserted (the identity provider owns the membership of mapped groups, so a removal there is a removal
 * here at the next sign-on). Groups no mapping points at are left alone. Each change is a webhook event.
 */
export async function applyGroupMappings(
  em: EntityManager,
  events: WebhookEventsService,
  o: { systemDomainId: string; userId: string; names: string[]; requestId: string | null },
): Promise<{ joined: string[]; left: string[] }> {
  const names = [...new Set(o.names.map((n) => n.trim()).filter((n) => n && n.length <= 256))].slice(
    0,
    MAX_NAMES,
  );
  // a function of the sign-on's transaction: the repository over that transaction's data source
  const repo = new GroupsRepository(em.connection);
  const rows = await repo.mappedGroups(em, o.systemDomainId, names);
  const want = rows.filter((r) => r.asserted).map((r) => r.group_id);
  const drop = rows.filter((r) => !r.asserted).map((r) => r.group_id);
  const joined = want.length ? await repo.joinAll(em, want, o.userId) : [];
  const left = drop.length ? await repo.leaveAll(em, drop, o.userId) : [];
  for (const [list, operation] of [
    [joined, 'create'],
    [left, 'delete'],
  ] as const) {
    for (const groupId of list) {
      await events.record(em, {
        systemDomainId: o.systemDomainId,
        objectId: groupId,
        realm: 'group_member',
        operation,
        eventType: 'groups',
        data: { group_id: groupId, user_id: o.userId, reason: 'group_mapping' },
        requestId: o.requestId,
      });
    }
  }
  return { joined, left };
}
