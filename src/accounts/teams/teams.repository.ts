import { Injectable } from '@nestjs/common';
import type { EntityManager, SelectQueryBuilder } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { whereContains } from '../../base/database/sql-helpers.js';
import { GroupLogoEntity } from '../../base/model/group-logo.entity.js';
import { GroupMappingEntity } from '../../base/model/group-mapping.entity.js';
import { GroupEntity, type GroupKind } from '../../base/model/group.entity.js';

/**
 * The statements of teams and role groups (rows of `groups` of one kind), of the logos of teams and groups,
 * and of group mappings, so GroupKindsService, GroupLogosService and GroupMappingsService hold the rules and
 * are unit-tested with a fake of this class. Memberships are the groups feature's statements (GroupsService's
 * `…In(em)` methods). Methods that take an EntityManager run in the caller's transaction (`transaction()`).
 */
@Injectable()
export class TeamsRepository extends FeatureRepository {
  /** The domain's rows of these kinds whose name contains `text` (all of them without it), for pageList. */
  search(
    systemDomainId: string,
    kinds: GroupKind[],
    text: string | undefined,
  ): SelectQueryBuilder<GroupEntity> {
    const qb = this.domainQuery(GroupEntity, 'g', systemDomainId).andWhere('g.kind IN (:...kinds)', {
      kinds,
    });
    return whereContains(qb, ['g.name'], text);
  }

  /** A row of this kind in the domain, or null; `lock` holds it (FOR UPDATE) until the transaction ends. */
  ofKind(
    em: EntityManager,
    systemDomainId: string,
    kind: GroupKind,
    id: string,
    lock = false,
  ): Promise<GroupEntity | null> {
    const where = { id, system_domain_id: systemDomainId, kind };
    return lock
      ? em.findOne(GroupEntity, { where, lock: { mode: 'pessimistic_write' } })
      : em.findOneBy(GroupEntity, where);
  }

  /** Whether the domain has a row of this kind and name. */
  nameTaken(em: EntityManager, systemDomainId: string, kind: GroupKind, name: string): Promise<boolean> {
    return em.existsBy(GroupEntity, { system_domain_id: systemDomainId, kind, name });
  }

  /** A new row: its id. (A unique violation is the caller's to word.) */
  async insert(
    em: EntityManager,
    fields: Partial<GroupEntity> & Pick<GroupEntity, 'system_domain_id' | 'kind' | 'roles'>,
  ): Promise<string> {
    const row = em.create(GroupEntity, fields);
    await em.insert(GroupEntity, row);
    return row.id;
  }

  /** Changes a row's own fields. (A unique violation is the caller's to word.) */
  async update(em: EntityManager, id: string, changes: Partial<GroupEntity>): Promise<void> {
    await em.update(GroupEntity, { id }, changes);
  }

  /** Deletes a row of this kind in the domain (its memberships, logo and mappings go with it: ON DELETE CASCADE). */
  async delete(em: EntityManager, systemDomainId: string, kind: GroupKind, id: string): Promise<void> {
    await em.delete(GroupEntity, { id, system_domain_id: systemDomainId, kind });
  }

  /** Stores a team's or group's logo (replacing the one there) and marks the row modified at `now`. */
  async saveLogo(
    em: EntityManager,
    logo: Pick<GroupLogoEntity, 'group_id' | 'content_type' | 'bytes' | 'sha256' | 'date_modified'>,
    now: Date,
  ): Promise<void> {
    await em.getRepository(GroupLogoEntity).upsert(logo, ['group_id']);
    await em.update(GroupEntity, { id: logo.group_id }, { date_modified: now });
  }

  /** Deletes the logo: false when there was none. */
  async deleteLogo(em: EntityManager, groupId: string): Promise<boolean> {
    const res = await em.getRepository(GroupLogoEntity).delete({ group_id: groupId });
    return !!res.affected;
  }

  /** The logo of a row of this kind in the domain, or null. */
  logo(systemDomainId: string, kind: GroupKind, id: string): Promise<GroupLogoEntity | null> {
    return this.ds
      .getRepository(GroupLogoEntity)
      .createQueryBuilder('l')
      .innerJoin(GroupEntity, 'g', 'g.id = l.group_id')
      .where('l.group_id = :id AND g.system_domain_id = :domain AND g.kind = :kind', {
        id,
        domain: systemDomainId,
        kind,
      })
      .getOne();
  }

  /** The domain's group mappings, for pageList. */
  mappings(systemDomainId: string): SelectQueryBuilder<GroupMappingEntity> {
    return this.domainQuery(GroupMappingEntity, 'm', systemDomainId);
  }

  /** The domain's mapping of this name, or null; with `em` and `lock`, held (FOR UPDATE) in that transaction. */
  mapping(
    systemDomainId: string,
    name: string,
    o: { em?: EntityManager; lock?: boolean } = {},
  ): Promise<GroupMappingEntity | null> {
    const em = o.em ?? this.ds.manager;
    const where = { system_domain_id: systemDomainId, name };
    return o.lock
      ? em.findOne(GroupMappingEntity, { where, lock: { mode: 'pessimistic_write' } })
      : em.findOneBy(GroupMappingEntity, where);
  }

  /** Whether the domain has a mapping of this name. */
  mappingTaken(em: EntityManager, systemDomainId: string, name: string): Promise<boolean> {
    return em.existsBy(GroupMappingEntity, { system_domain_id: systemDomainId, name });
  }

  /** A new mapping, as stored. (A unique violation is the caller's to word.) */
  async insertMapping(
    em: EntityManager,
    fields: Pick<GroupMappingEntity, 'system_domain_id' | 'name' | 'group_id'>,
  ): Promise<GroupMappingEntity> {
    const row = em.create(GroupMappingEntity, fields);
    await em.insert(GroupMappingEntity, row);
    return em.findOneByOrFail(GroupMappingEntity, { id: row.id });
  }

  async deleteMapping(em: EntityManager, id: string): Promise<void> {
    await em.delete(GroupMappingEntity, { id });
  }

  /** A group, team or role group of the domain (any kind), or null; without a domain, by id alone. */
  anyKind(em: EntityManager, id: string, systemDomainId?: string): Promise<GroupEntity | null> {
    return em.findOneBy(GroupEntity, systemDomainId ? { id, system_domain_id: systemDomainId } : { id });
  }
}
