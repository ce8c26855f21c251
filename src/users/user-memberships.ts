import type { EntityManager } from 'typeorm';

/** What the published User carries of a member's place in a domain, besides its own fields. */
export interface UserMemberships {
  groups: string[];
  teams: string[];
  role_groups: string[];
  primary_group: string | null;
}

const FIELD = { GROUP: 'groups', TEAM: 'teams', ROLE_GROUP: 'role_groups' } as const;

/**
 * The users' groups, teams and role groups in the domain, and their primary group there, for a whole page
 * of users in one statement (no query per user). Someone who is not a member (a super administrator acting
 * in a domain) has none.
 */
export async function withMemberships<T extends { id: string }>(
  em: EntityManager,
  systemDomainId: string,
  users: T[],
): Promise<(T & UserMemberships)[]> {
  if (users.length === 0) return [];
  // raw: one LEFT JOIN over memberships and groups for every user of the page
  const rows = (await em.query(
    `SELECT m.user_id, m.primary_group_id, g.id AS group_id, g.kind
       FROM user_system_domains m
       LEFT JOIN group_members gm ON gm.user_id = m.user_id
       LEFT JOIN groups g ON g.id = gm.group_id AND g.system_domain_id = m.system_domain_id
      WHERE m.system_domain_id = $1 AND m.user_id = ANY($2::uuid[])
      ORDER BY g.name, g.id`,
    [systemDomainId, users.map((u) => u.id)],
  )) as { user_id: string; primary_group_id: string | null; group_id: string | null; kind: string | null }[];
  const of = new Map<string, UserMemberships>();
  for (const r of rows) {
    let m = of.get(r.user_id);
    if (!m) {
      m = { groups: [], teams: [], role_groups: [], primary_group: r.primary_group_id };
      of.set(r.user_id, m);
    }
    if (r.group_id && r.kind) m[FIELD[r.kind as keyof typeof FIELD]].push(r.group_id);
  }
  return users.map((u) => ({
    ...u,
    ...(of.get(u.id) ?? { groups: [], teams: [], role_groups: [], primary_group: null }),
  }));
}
