import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { ListEnvelope } from '../../base/common/http/list-envelope.js';
import { pageList } from '../../base/common/http/page-list.js';
import type { PageQueryDto } from '../../base/common/http/pagination.dto.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import type { GroupMappingEntity } from '../../base/model/group-mapping.entity.js';
import type { CreateGroupMappingDto, GroupMappingDto, GroupReindexDto } from './dto/group-mapping.dto.js';
import { GroupKindsService } from './group-kinds.service.js';
import { TeamsErrors } from './teams.errors.js';
import { TeamsRepository } from './teams.repository.js';

const view = (m: GroupMappingEntity): GroupMappingDto => ({
  name: m.name,
  group_id: m.group_id,
  system_domain_id: m.system_domain_id,
  date_created: wireDate(m.date_created),
});

/**
 * Group mappings (/v1/groups/mappings/): an identity provider's group name → a group, team or role group of
 * the domain, applied at every single sign-on (groups/group-mappings.ts). Pointing a name at something that
 * carries roles hands those roles to whoever the identity provider says is in that group, so the caller
 * must hold them, as for granting them directly.
 */
@Injectable()
export class GroupMappingsService {
  constructor(
    private readonly repo: TeamsRepository,
    private readonly kinds: GroupKindsService,
  ) {}

  list(auth: AuthContext, q: PageQueryDto, path: string): Promise<ListEnvelope<GroupMappingDto>> {
    return pageList({
      qb: this.repo.mappings(auth.systemDomainId),
      alias: 'm',
      q,
      sortable: ['name', 'date_created'],
      defaultSort: [{ field: 'name', order: 'ASC' }],
      path,
      view: (rows) => rows.map(view),
    });
  }

  async get(auth: AuthContext, name: string): Promise<GroupMappingDto> {
    const m = await this.repo.mapping(auth.systemDomainId, name);
    if (!m) throw TeamsErrors.MAPPING_NOT_FOUND();
    return view(m);
  }

  async create(auth: AuthContext, body: CreateGroupMappingDto): Promise<GroupMappingDto> {
    const name = body.name.trim();
    if (!name) throw TeamsErrors.INVALID({ name: 'must not be blank' });
    return this.repo.transaction(async (em) => {
      const group = await this.repo.anyKind(em, body.group_id, auth.systemDomainId);
      if (!group) throw TeamsErrors.GROUP_NOT_FOUND();
      const missing = group.roles.filter((r) => !(auth.roles as Set<string>).has(r));
      if (missing.length)
        throw TeamsErrors.ROLES_NOT_HELD('You cannot map to a group carrying roles you do not hold', missing);
      if (await this.repo.mappingTaken(em, auth.systemDomainId, name)) throw TeamsErrors.MAPPING_TAKEN();
      const row = await this.repo
        .insertMapping(em, { system_domain_id: auth.systemDomainId, name, group_id: group.id })
        .catch((e: unknown) => {
          throw isUniqueViolation(e) ? TeamsErrors.MAPPING_TAKEN() : e;
        });
      const created = view(row);
      await this.kinds.emit(em, auth, 'group_mapping', group.id, 'create', { ...created });
      return created;
    });
  }

  async remove(auth: AuthContext, name: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      const m = await this.repo.mapping(auth.systemDomainId, name, { em, lock: true });
      if (!m) throw TeamsErrors.MAPPING_NOT_FOUND();
      const group = await this.repo.anyKind(em, m.group_id);
      const missing = (group?.roles ?? []).filter((r) => !(auth.roles as Set<string>).has(r));
      if (missing.length)
        throw TeamsErrors.ROLES_NOT_HELD('You cannot manage a mapping to roles you do not hold', missing);
      await this.repo.deleteMapping(em, m.id);
      await this.kinds.emit(em, auth, 'group_mapping', m.group_id, 'delete', {
        name: m.name,
        group_id: m.group_id,
      });
    });
  }

  /** This service keeps no index: the request becomes a webhook event (operation `reindex`) for the indexer. */
  async reindex(auth: AuthContext, groupId: string): Promise<GroupReindexDto> {
    const id = randomUUID();
    // the request's id is the indexer's job id (`job_id`), READY until the indexer takes it (GroupReindexDto)
    const request = { id, group_id: groupId, job_id: id, status: 'READY' as const };
    await this.repo.transaction(async (em) => {
      const group = await this.repo.anyKind(em, groupId, auth.systemDomainId);
      if (!group) throw TeamsErrors.GROUP_NOT_FOUND();
      await this.kinds.emit(em, auth, 'group', groupId, 'reindex', {
        reindex_id: id,
        job_id: id,
        group_id: groupId,
      });
    });
    return request;
  }
}
