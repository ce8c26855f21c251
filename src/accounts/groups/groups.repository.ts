import { Injectable } from '@nestjs/common';
import { type EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { returningRows } from '../../base/database/returning-rows.js';
import { whereContains } from '../../base/database/sql-helpers.js';
import { GroupLogoEntity } from '../../base/model/group-logo.entity.js';
import { GroupEntity } from '../../base/model/group.entity.js';

/**
 * The statements of groups (rows of `groups` of kind GROUP) for GroupsService, and the membership statements
 * of groups, teams and role groups (one `groups` table with a kind, one `group_members`), for GroupsService,
 * GroupKindsService (through GroupsService) and the group mappings applied at a SAML sign-on. Every method
 * takes the caller's EntityManager where it belongs to a larger change (`transaction()`).
 */
@Injectable()
export class GroupsRepository extends FeatureRepository {
  /** The domain's groups whose name contains `text` (all of them without it), for pageList. */
  search(systemDomainId: string, text: string | undefined): SelectQueryBuilder<GroupEntity> {
    const qb = this.domainQuery(GroupEntity, 'g', systemDomainId).andWhere("g.kind = 'GROUP'");
    return whereContains(qb, ['g.name'], text);
  }

  /** A group of the domain, or null; `lock` holds its row (FOR UPDATE) until the transaction ends. */
  group(em: EntityManager, systemDomainId: string, id: string, lock = false): Promise<GroupEntity | null> {
    const where = { id, system_domain_id: systemDomainId, kind: 'GROUP' as const };
    return lock
      ? em.findOne(GroupEntity, { where, lock: { mode: 'pessimistic_write' } })
      : em.findOneBy(GroupEntity, where);
  }

  /** Whether the domain has a group of this name. */
  nameTaken(em: EntityManager, systemDomainId: string, name: string): Promise<boolean> {
    return em.existsBy(GroupEntity, { system_domain_id: systemDomainId, kind: 'GROUP', name });
  }

  /** A new group of the domain: its id. (A unique violation is the caller's to word.) */
  async insertGroup(
    em: EntityManager,
    fields: Pick<GroupEntity, 'system_domain_id' | 'name' | 'description' | 'roles'>,
  ): Promise<string> {
    const group = em.create(GroupEntity, { ...fields, kind: 'GROUP' });
    await em.insert(GroupEntity, group);
    return group.id;
  }

  /** Changes a group's own fields. (A unique violation is the caller's to word.) */
  async updateGroup(em: EntityManager, id: string, changes: Partial<GroupEntity>): Promise<void> {
    await em.update(GroupEntity, { id }, changes);
  }

  /** Deletes a group of the domain (its memberships go with it: ON DELETE CASCADE). */
  async deleteGroup(em: EntityManager, systemDomainId: string, id: string): Promise<void> {
    await em.delete(GroupEntity, { id, system_domain_id: systemDomainId, kind: 'GROUP' });
  }

  /** Adds a member: false when they were one already. */
  async addMember(em: EntityManager, groupId: string, userId: string): Promise<boolean> {
    // raw: INSERT … ON CONFLICT DO NOTHING RETURNING tells a new membership from an existing one in one statement
    const added = returningRows<{ user_id: string }>(
      await em.query(
        'INSERT INTO group_members (group_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING user_id',
        [groupId, userId],
      ),
    );
    return added.length > 0;
  }

  /** Removes a member: false when they were not one. */
  async removeMember(em: EntityManager, groupId: string, userId: string): Promise<boolean> {
    // raw: DELETE … RETURNING (kept as the teams service had it; the count decides the 404)
    const res = await em.query(
      'DELETE FROM group_members WHERE group_id = $1 AND user_id = $2 RETURNING user_id',
      [groupId, userId],
    );
    return returningRows(res).length > 0;
  }

  /** Current members of each group (a membership of someone who left the domain is not shown), in join order. */
  async currentMemberIds(em: EntityManager, groupIds: string[]): Promise<Map<string, string[]>> {
    if (groupIds.length === 0) return new Map();
    // raw: array_agg(… ORDER BY …) per group over a three-table join, one round trip for a page of groups
    const rows: { group_id: string; ids: string[] }[] = await em.query(
      `SELECT gm.group_id, array_agg(gm.user_id::text ORDER BY gm.date_created, gm.user_id) AS ids
         FROM group_members gm
         JOIN groups g ON g.id = gm.group_id
         JOIN user_system_domains m ON m.user_id = gm.user_id AND m.system_domain_id = g.system_domain_id
        WHERE gm.group_id = ANY($1::uuid[])
        GROUP BY gm.group_id`,
      [groupIds],
    );
    return new Map(rows.map((r) => [r.group_id, r.ids]));
  }

  /** The logo hash of each group that has one. */
  async logoHashes(em: EntityManager, groupIds: string[]): Promise<Map<string, string>> {
    const logos = await em
      .getRepository(GroupLogoEntity)
      .find({ select: { group_id: true, sha256: true }, where: { group_id: In(groupIds) } });
    return new Map(logos.map((l) => [l.group_id, l.sha256]));
  }

  /** The domain's mapped groups, each with whether one of its mapped names is among `names`. */
  async mappedGroups(
    em: EntityManager,
    systemDomainId: string,
    names: string[],
  ): Promise<{ group_id: string; asserted: boolean }[]> {
    // raw: bool_or(… = ANY($2::text[])) aggregated per group
    return (await em.query(
      `SELECT m.group_id, bool_or(m.name = ANY($2::text[])) AS asserted
         FROM group_mappings m JOIN groups g ON g.id = m.group_id AND g.system_domain_id = m.system_domain_id
        WHERE m.system_domain_id = $1
        GROUP BY m.group_id`,
      [systemDomainId, names],
    )) as { group_id: string; asserted: boolean }[];
  }

  /** Joins the user to these groups: the ones joined now (not those already joined). */
  async joinAll(em: EntityManager, groupIds: string[], userId: string): Promise<string[]> {
    // raw: INSERT … SELECT unnest(…) ON CONFLICT DO NOTHING RETURNING, one statement for every group
    const rows = returningRows<{ group_id: string }>(
      await em.query(
        `INSERT INTO group_members (group_id, user_id) SELECT unnest($1::uuid[]), $2
         ON CONFLICT DO NOTHING RETURNING group_id`,
        [groupIds, userId],
      ),
    );
    return rows.map((r) => r.group_id);
  }

  /** Removes the user from these groups: the ones left now. */
  async leaveAll(em: EntityManager, groupIds: string[], userId: string): Promise<string[]> {
    // raw: DELETE … RETURNING the groups actually left
    const rows = returningRows<{ group_id: string }>(
      await em.query(
        'DELETE FROM group_members WHERE group_id = ANY($1::uuid[]) AND user_id = $2 RETURNING group_id',
        [groupIds, userId],
      ),
    );
    return rows.map((r) => r.group_id);
  }
}
