import type { UserDto } from '../users/dto/user.dto.js';
import { pageOfGroups } from '../groups/group-page.js';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccessService } from '../../base/common/auth/access.service.js';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import type { ListEnvelope } from '../../base/common/http/list-envelope.js';
import { wireDate } from '../../base/common/http/wire-date.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import type { GroupListQueryDto } from '../groups/dto/group.dto.js';
import type { GroupEntity } from '../../base/model/group.entity.js';
import { UsersService } from '../users/users.service.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import type {
  CreateRoleGroupDto,
  GroupLikeBasicDto,
  RoleGroupDto,
  TeamDto,
  UpdateRoleGroupDto,
} from './dto/team.dto.js';
import type { KindSpec } from './group-kind.js';
import { GroupsService } from '../groups/groups.service.js';
import { TeamsErrors } from './teams.errors.js';
import { TeamsRepository } from './teams.repository.js';

type Body = Partial<CreateRoleGroupDto> & Partial<UpdateRoleGroupDto>;
type View = TeamDto | RoleGroupDto;

/**
 * Teams and role groups: rows of `groups` of one kind, members in `group_members`. A role group's roles reach
 * its members through the guard's per-request lookup (it reads every group-like row's roles), so a grant
 * counts on the next request and is gone on the next request after removal. The rule against escalation is
 * the groups' one: a caller grants, or manages something carrying, only roles they hold.
 */
@Injectable()
export class GroupKindsService {
  constructor(
    private readonly repo: TeamsRepository,
    private readonly access: AccessService,
    private readonly users: UsersService,
    private readonly events: WebhookEventsService,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
    private readonly groups: GroupsService,
  ) {}

  async list(
    spec: KindSpec,
    auth: AuthContext,
    q: GroupListQueryDto,
    path: string,
  ): Promise<ListEnvelope<View>> {
    return this.page([spec.kind], auth, q, path, (rows) => this.views(this.repo.manager, spec, rows));
  }

  /** The basic form (id, name, kind) of some kinds: any member of the domain may list these, for pickers. */
  async basic(
    kinds: GroupEntity['kind'][],
    auth: AuthContext,
    q: GroupListQueryDto,
    path: string,
  ): Promise<ListEnvelope<GroupLikeBasicDto>> {
    return this.page(kinds, auth, q, path, (rows) =>
      rows.map((g) => ({ id: g.id, name: g.name, kind: g.kind })),
    );
  }

  async get(spec: KindSpec, auth: AuthContext, id: string): Promise<View> {
    const [view] = await this.views(this.repo.manager, spec, [
      await this.find(this.repo.manager, spec, auth, id),
    ]);
    return view;
  }

  async create(spec: KindSpec, auth: AuthContext, body: Body): Promise<View> {
    const changes = this.changes(spec, auth, body);
    const name = changes.name!;
    return this.repo.transaction(async (em) => {
      await this.requireFreeName(em, spec, auth, name);
      const id = await this.write(
        this.repo.insert(em, {
          ...changes,
          system_domain_id: auth.systemDomainId,
          kind: spec.kind,
          roles: changes.roles ?? [],
        }),
      );
      const created = await this.get2(em, spec, auth, id);
      await this.emit(em, auth, spec.entity, id, 'create', { ...created });
      return created;
    });
  }

  async update(spec: KindSpec, auth: AuthContext, id: string, body: Body): Promise<View> {
    return this.repo.transaction(async (em) => {
      const row = await this.manageable(em, spec, auth, id);
      const changes = this.changes(spec, auth, body);
      if (changes.name !== undefined && changes.name !== row.name)
        await this.requireFreeName(em, spec, auth, changes.name);
      if (Object.keys(changes).length === 0) return this.get2(em, spec, auth, id);
      await this.write(this.repo.update(em, id, changes));
      const updated = await this.get2(em, spec, auth, id);
      await this.emit(em, auth, spec.entity, id, 'update', { ...updated });
      return updated;
    });
  }

  /** Its members lose its roles on their next request. */
  async remove(spec: KindSpec, auth: AuthContext, id: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      await this.manageable(em, spec, auth, id);
      await this.repo.delete(em, auth.systemDomainId, spec.kind, id);
      await this.emit(em, auth, spec.entity, id, 'delete', { id });
    });
  }

  /** Idempotent; the user must belong to the domain. Answers the user with their memberships apart. */
  async addUser(spec: KindSpec, auth: AuthContext, id: string, userId: string): Promise<UserDto> {
    await this.access.require(auth, 'user', [userId]);
    await this.repo.transaction(async (em) => {
      await this.manageable(em, spec, auth, id);
      if (await this.groups.addMemberIn(em, id, userId))
        await this.emit(em, auth, spec.memberRealm, id, 'create', {
          [`${spec.entity}_id`]: id,
          user_id: userId,
        });
    });
    return this.userWithMemberships(auth, userId);
  }

  async removeUser(spec: KindSpec, auth: AuthContext, id: string, userId: string): Promise<void> {
    await this.access.require(auth, 'user', [userId]);
    await this.repo.transaction(async (em) => {
      await this.manageable(em, spec, auth, id);
      if (!(await this.groups.removeMemberIn(em, id, userId))) throw TeamsErrors.MEMBER_NOT_FOUND();
      await this.emit(em, auth, spec.memberRealm, id, 'delete', {
        [`${spec.entity}_id`]: id,
        user_id: userId,
      });
    });
  }

  /** A user of the caller's domain: the published User carries their groups, teams and role groups there. */
  userWithMemberships(auth: AuthContext, userId: string): Promise<UserDto> {
    return this.users.get(auth, userId);
  }

  /** A row of this kind in the caller's domain whose roles the caller holds, locked against concurrent changes. */
  async manageable(em: EntityManager, spec: KindSpec, auth: AuthContext, id: string): Promise<GroupEntity> {
    const row = await this.repo.ofKind(em, auth.systemDomainId, spec.kind, id, true);
    if (!row) throw spec.notFound();
    this.requireHeld(auth, row.roles, 'You cannot manage a role group carrying roles you do not hold');
    return row;
  }

  emit(
    em: EntityManager,
    auth: AuthContext,
    realm: string,
    objectId: string,
    operation: 'create' | 'update' | 'delete' | 'reindex',
    data: Record<string, unknown>,
  ): Promise<void> {
    return this.events.record(em, {
      systemDomainId: auth.systemDomainId,
      objectId,
      realm,
      operation,
      eventType: 'groups',
      data,
      requestId: auth.requestId,
    });
  }

  private get2(em: EntityManager, spec: KindSpec, auth: AuthContext, id: string): Promise<View> {
    return this.find(em, spec, auth, id).then(async (row) => (await this.views(em, spec, [row]))[0]);
  }

  private async find(em: EntityManager, spec: KindSpec, auth: AuthContext, id: string): Promise<GroupEntity> {
    const row = await this.repo.ofKind(em, auth.systemDomainId, spec.kind, id);
    if (!row) throw spec.notFound();
    return row;
  }

  /** The body as column values: names trimmed, roles only for role groups and only those the caller holds. */
  private changes(spec: KindSpec, auth: AuthContext, body: Body): Partial<GroupEntity> {
    const out: Partial<GroupEntity> = {};
    if (body.name !== undefined) {
      out.name = body.name.trim();
      if (out.name === '') throw TeamsErrors.INVALID({ name: 'must not be blank' });
    }
    for (const k of ['alias', 'description', 'external_id', 'default_user_type'] as const) {
      if (body[k] !== undefined) out[k] = body[k] ?? null;
    }
    if (spec.carriesRoles) {
      if (body.roles !== undefined) {
        out.roles = [...new Set(body.roles)];
        this.requireHeld(auth, out.roles, 'You cannot grant roles you do not hold');
      }
      if (body.role_categories !== undefined) out.role_categories = [...new Set(body.role_categories)];
    }
    return out;
  }

  private async requireFreeName(em: EntityManager, spec: KindSpec, auth: AuthContext, name: string) {
    if (await this.repo.nameTaken(em, auth.systemDomainId, spec.kind, name)) throw TeamsErrors.NAME_TAKEN();
  }

  private requireHeld(auth: AuthContext, roles: string[], message: string): void {
    const missing = roles.filter((r) => !(auth.roles as Set<string>).has(r));
    if (missing.length > 0) throw TeamsErrors.ROLES_NOT_HELD(message, missing);
  }

  private write<T>(op: Promise<T>): Promise<T> {
    return op.catch((e: unknown) => {
      throw isUniqueViolation(e) ? TeamsErrors.NAME_TAKEN() : e;
    });
  }

  /** A page of the domain's groups of some kinds, filtered by `query` (the name), each shown by `view`. */
  private page<T>(
    kinds: GroupEntity['kind'][],
    auth: AuthContext,
    q: GroupListQueryDto,
    path: string,
    view: (rows: GroupEntity[]) => T[] | Promise<T[]>,
  ): Promise<ListEnvelope<T>> {
    return pageOfGroups((text) => this.repo.search(auth.systemDomainId, kinds, text), q, path, view);
  }

  /** Current members only (a membership of someone who left the domain is not shown), and team logos. */
  private async views(em: EntityManager, spec: KindSpec, rows: GroupEntity[]): Promise<View[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((g) => g.id);
    const byGroup = await this.groups.currentMemberIdsIn(em, ids);
    const logoOf = spec.carriesRoles ? new Map<string, string>() : await this.groups.logoHashesIn(em, ids);
    return rows.map((g) => {
      const common = {
        id: g.id,
        name: g.name,
        alias: g.alias,
        description: g.description,
        external_id: g.external_id,
        default_user_type: g.default_user_type,
        system_domain_id: g.system_domain_id,
        member_ids: byGroup.get(g.id) ?? [],
        date_created: wireDate(g.date_created),
        date_modified: wireDate(g.date_modified),
      };
      if (spec.carriesRoles) return { ...common, roles: g.roles, role_categories: g.role_categories };
      const sha = logoOf.get(g.id);
      return { ...common, logo: sha ? this.logoUrl('teams', g.id, sha) : null };
    });
  }

  logoUrl(collection: 'teams' | 'groups', id: string, sha256: string): string {
    const base = this.config.http.publicBaseUrl.replace(/\/+$/, '');
    return `${base}/API/users/v1/${collection}/${id}/logo/?v=${sha256.slice(0, 12)}`;
  }
}
