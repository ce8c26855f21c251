import type { EntityManager } from 'typeorm';
import { MembershipsRepository } from './memberships.repository.js';

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
  // a function of the caller's transaction: the repository over that transaction's data source
  const rows = await new MembershipsRepository(em.connection).membershipRows(
    em,
    systemDomainId,
    users.map((u) => u.id),
  );
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
