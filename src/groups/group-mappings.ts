import type { EntityManager } from 'typeorm';
import { returningRows } from '../database/returning-rows.js';
import type { WebhookEventsService } from '../webhooks/webhook-events.service.js';

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
  const rows: { group_id: string; asserted: boolean }[] = await em.query(
    `SELECT m.group_id, bool_or(m.name = ANY($2::text[])) AS asserted
       FROM group_mappings m JOIN groups g ON g.id = m.group_id AND g.system_domain_id = m.system_domain_id
      WHERE m.system_domain_id = $1
      GROUP BY m.group_id`,
    [o.systemDomainId, names],
  );
  const want = rows.filter((r) => r.asserted).map((r) => r.group_id);
  const drop = rows.filter((r) => !r.asserted).map((r) => r.group_id);
  const joined = want.length
    ? returningRows<{ group_id: string }>(
        await em.query(
          `INSERT INTO group_members (group_id, user_id) SELECT unnest($1::uuid[]), $2
           ON CONFLICT DO NOTHING RETURNING group_id`,
          [want, o.userId],
        ),
      )
    : [];
  const left = drop.length
    ? returningRows<{ group_id: string }>(
        await em.query(
          'DELETE FROM group_members WHERE group_id = ANY($1::uuid[]) AND user_id = $2 RETURNING group_id',
          [drop, o.userId],
        ),
      )
    : [];
  for (const [list, operation] of [
    [joined, 'create'],
    [left, 'delete'],
  ] as const) {
    for (const r of list) {
      await events.record(em, {
        systemDomainId: o.systemDomainId,
        objectId: r.group_id,
        realm: 'group_member',
        operation,
        eventType: 'groups',
        data: { group_id: r.group_id, user_id: o.userId, reason: 'group_mapping' },
        requestId: o.requestId,
      });
    }
  }
  return { joined: joined.map((r) => r.group_id), left: left.map((r) => r.group_id) };
}
