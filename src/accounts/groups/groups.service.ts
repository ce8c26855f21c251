import { Injectable } from '@nestjs/common';
import { pageOfGroups } from './group-page.js';
import { GroupsErrors } from './groups.errors.js';
import type { EntityManager } from 'typeorm';
import { AccessService } from '../../base/common/auth/access.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { ListEnvelope } from '../../base/common/http/list-envelope.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import type {
  CreateGroupDto,
  GroupBasicDto,
  GroupDto,
  GroupListQueryDto,
  UpdateGroupDto,
} from './dto/group.dto.js';
import type { UserDto } from '../users/dto/user.dto.js';
import { UsersService } from '../users/users.service.js';
import type { GroupEntity } from '../../base/model/group.entity.js';
import { groupBasicView, groupView } from './group-view.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { GroupsRepository } from './groups.repository.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import { recordGroupChange } from './group-change.js';

/**
 * Groups carry the roles of a domain's users. The one rule against privilege escalation: a caller may only
 * grant, or manage a group that carries, roles they hold themselves. Administrators hold every domain role,
 * so for them this only keeps the system-domain roles to super administrators.
 */
@Injectable()
export class GroupsService {
  constructor(
    private readonly access: AccessService,
    private readonly users: UsersService,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
    private readonly repo: GroupsRepository,
  ) {}

  async list(auth: AuthContext, q: GroupListQueryDto, path: string): Promise<ListEnvelope<GroupDto>> {
    return this.page(auth, q, path, async (rows) => {
      const members = await this.memberIds(this.repo.manager, rows);
      return rows.map((g) => groupView(g, members.get(g.id) ?? []));
    });
  }

  /** The picker's list: any member of the domain sees the groups' ids and names, not their roles. */
  async basicList(
    auth: AuthContext,
    q: GroupListQueryDto,
    path: string,
  ): Promise<ListEnvelope<GroupBasicDto>> {
    return this.page(auth, q, path, (rows) => rows.map(groupBasicView));
  }

  async get(auth: AuthContext, id: string): Promise<GroupDto> {
    return this.view(this.repo.manager, await this.find(this.repo.manager, auth, id));
  }

  async create(auth: AuthContext, body: CreateGroupDto): Promise<GroupDto> {
    const roles = [...new Set(body.roles ?? [])];
    this.requireHeld(auth, roles, 'You cannot grant roles you do not hold');
    const name = this.name(body.name);
    return this.repo.transaction(async (em) => {
      if (await this.repo.nameTaken(em, auth.systemDomainId, name)) throw GroupsErrors.NAME_TAKEN();
      const id = await this.write(
        this.repo.insertGroup(em, {
          system_domain_id: auth.systemDomainId,
          name,
          description: body.description ?? null,
          roles,
        }),
      );
      const created = await this.view(em, await this.find(em, auth, id));
      await this.emit(em, auth, 'group', created.id, 'create', { ...created });
      return created;
    });
  }

  async update(auth: AuthContext, id: string, body: UpdateGroupDto): Promise<GroupDto> {
    return this.repo.transaction(async (em) => {
      const group = await this.manageable(em, auth, id);
      const changes: Partial<GroupEntity> = {};
      if (body.name !== undefined) changes.name = this.name(body.name);
      if (body.description !== undefined) changes.description = body.description;
      if (body.roles !== undefined) {
        changes.roles = [...new Set(body.roles)];
        this.requireHeld(auth, changes.roles, 'You cannot grant roles you do not hold');
      }
      if (changes.name !== undefined && changes.name !== group.name) {
        if (await this.repo.nameTaken(em, auth.systemDomainId, changes.name)) throw GroupsErrors.NAME_TAKEN();
      }
      if (Object.keys(changes).length === 0) return this.view(em, group);
      await this.write(this.repo.updateGroup(em, id, changes));
      const updated = await this.view(em, await this.find(em, auth, id));
      await this.emit(em, auth, 'group', id, 'update', { ...updated });
      return updated;
    });
  }

  /** Its members lose its roles on their next request (roles are read with the token on every request). */
  async remove(auth: AuthContext, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      await this.manageable(em, auth, id);
      await this.repo.deleteGroup(em, auth.systemDomainId, id);
      await this.emit(em, auth, 'group', id, 'delete', { id });
    });
  }

  /** Idempotent: adding a member twice leaves one membership. The user must belong to the domain. */
  async addMember(auth: AuthContext, groupId: string, userId: string): Promise<GroupDto> {
    await this.access.require(auth, 'user', [userId]);
    return this.repo.transaction(async (em) => this.view(em, await this.join(em, auth, groupId, userId)));
  }

  /** addMember for the users/ path, which answers the user rather than the group. */
  async addUser(auth: AuthContext, groupId: string, userId: string): Promise<UserDto> {
    await this.access.require(auth, 'user', [userId]);
    await this.repo.transaction((em) => this.join(em, auth, groupId, userId));
    return this.users.get(auth, userId);
  }

  async removeMember(auth: AuthContext, groupId: string, userId: string): Promise<void> {
    await this.access.require(auth, 'user', [userId]);
    await this.repo.transaction(async (em) => {
      await this.manageable(em, auth, groupId);
      if (!(await this.repo.removeMember(em, groupId, userId))) throw GroupsErrors.MEMBER_NOT_FOUND();
      await this.emit(em, auth, 'group_member', groupId, 'delete', { group_id: groupId, user_id: userId });
    });
  }

  private async join(em: EntityManager, auth: AuthContext, groupId: string, userId: string) {
    const group = await this.manageable(em, auth, groupId);
    // adding a member again changes nothing and tells nobody
    if (await this.repo.addMember(em, groupId, userId)) {
      await this.emit(em, auth, 'group_member', groupId, 'create', { group_id: groupId, user_id: userId });
    }
    return group;
  }

  /** The audit record and webhook event of a change to a group or its members (group-change.ts). */
  private emit(
    em: EntityManager,
    auth: AuthContext,
    realm: 'group' | 'group_member',
    groupId: string,
    operation: 'create' | 'update' | 'delete',
    data: Record<string, unknown>,
  ): Promise<void> {
    return recordGroupChange(em, { audit: this.audit, events: this.events }, auth, {
      realm,
      groupId,
      operation,
      data,
    });
  }

  /** A page of the caller's domain's groups, filtered by `query` (the name), each shown by `view`. */
  private page<T>(
    auth: AuthContext,
    q: GroupListQueryDto,
    path: string,
    view: (rows: GroupEntity[]) => T[] | Promise<T[]>,
  ): Promise<ListEnvelope<T>> {
    return pageOfGroups((text) => this.repo.search(auth.systemDomainId, text), q, path, view);
  }

  private async find(em: EntityManager, auth: AuthContext, id: string): Promise<GroupEntity> {
    const group = await this.repo.group(em, auth.systemDomainId, id);
    if (!group) throw GroupsErrors.NOT_FOUND();
    return group;
  }

  /** A group of the domain whose roles the caller holds, locked against concurrent changes. */
  private async manageable(em: EntityManager, auth: AuthContext, id: string): Promise<GroupEntity> {
    const group = await this.repo.group(em, auth.systemDomainId, id, true);
    if (!group) throw GroupsErrors.NOT_FOUND();
    this.requireHeld(auth, group.roles, 'You cannot manage a group carrying roles you do not hold');
    return group;
  }

  private requireHeld(auth: AuthContext, roles: string[], message: string): void {
    const missing = roles.filter((r) => !(auth.roles as Set<string>).has(r));
    if (missing.length > 0) throw GroupsErrors.ROLES_NOT_HELD(message, missing);
  }

  private name(raw: string): string {
    const name = raw.trim();
    if (name === '') throw GroupsErrors.INVALID({ name: 'must not be blank' });
    return name;
  }

  private write<T>(op: Promise<T>): Promise<T> {
    return op.catch((e: unknown) => {
      throw isUniqueViolation(e) ? GroupsErrors.NAME_TAKEN() : e;
    });
  }

  private async view(em: EntityManager, group: GroupEntity): Promise<GroupDto> {
    const members = await this.memberIds(em, [group]);
    return groupView(group, members.get(group.id) ?? []);
  }

  /** Current members only: a membership row of a user who has since left the domain is not shown. */
  private async memberIds(em: EntityManager, groups: GroupEntity[]): Promise<Map<string, string[]>> {
    return this.repo.currentMemberIds(
      em,
      groups.map((g) => g.id),
    );
  }

  /**
   * The membership statements of every kind of group (teams and role groups are rows of groups too), for a
   * change of TeamsModule's in its own transaction `em`: a new membership (false when already a member), its
   * removal (false when there was none), the current members and the logo digests of a page of groups.
   */
  addMemberIn(em: EntityManager, groupId: string, userId: string): Promise<boolean> {
    return this.repo.addMember(em, groupId, userId);
  }

  removeMemberIn(em: EntityManager, groupId: string, userId: string): Promise<boolean> {
    return this.repo.removeMember(em, groupId, userId);
  }

  currentMemberIdsIn(em: EntityManager, groupIds: string[]): Promise<Map<string, string[]>> {
    return this.repo.currentMemberIds(em, groupIds);
  }

  logoHashesIn(em: EntityManager, groupIds: string[]): Promise<Map<string, string>> {
    return this.repo.logoHashes(em, groupIds);
  }
}
