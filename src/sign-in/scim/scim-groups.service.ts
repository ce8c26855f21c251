import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { ScimError } from '../../base/common/errors/scim-error.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import { recordGroupChange } from '../../accounts/groups/group-change.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { ScimRepository, type ScimGroupRow } from './scim.repository.js';
import { applyPatch } from './scim-patch.js';
import { projection, type ScimListQuery } from './scim-query.js';
import {
  groupResource,
  listOf,
  project,
  readGroup,
  requireVersion,
  type Resource,
  versionOf,
  type Written,
} from './scim-resources.js';
import { isUuid } from '../../base/common/validation/uuid.js';

type GroupInput = ReturnType<typeof readGroup>;

/**
 * SCIM Groups (RFC 7644 §3) over the domain's groups (kind GROUP: what /API/users/v1/groups/ manages), their
 * members the accounts the domain owns. Members SCIM cannot see (shared accounts, super administrators) are
 * neither shown nor touched; a group carrying roles the token does not hold (system roles a super
 * administrator gave it) is not the provisioning client's to change (403), as for a domain administrator.
 */
@Injectable()
export class ScimGroupsService {
  constructor(
    private readonly repo: ScimRepository,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
  ) {}

  list(auth: AuthContext, q: ScimListQuery, base: string) {
    return listOf('Group', q, async (narrow) =>
      this.resources(this.repo.manager, auth, await this.repo.groups(auth.systemDomainId, narrow), base),
    );
  }

  async get(auth: AuthContext, id: string, base: string, q: ScimListQuery = {}): Promise<Written> {
    const resource = await this.current(this.repo.manager, auth, id, base);
    return { resource: project(resource, 'Group', projection(q)), version: versionOf(resource) };
  }

  async create(auth: AuthContext, body: unknown, base: string): Promise<Written> {
    const input = readGroup(body);
    const id = await this.write(
      this.repo.transaction(async (em) => {
        if (await this.repo.nameTaken(em, auth.systemDomainId, input.name)) throw taken();
        const members = await this.visible(em, auth, input.members);
        const groupId = await this.repo.insertGroup(em, auth.systemDomainId, input.name, input.externalId);
        await this.emit(em, auth, 'group', groupId, 'create', { id: groupId, name: input.name });
        await this.setMembers(em, auth, groupId, [], members);
        return groupId;
      }),
    );
    return this.written(auth, id, base);
  }

  replace(auth: AuthContext, id: string, body: unknown, base: string, ifMatch?: string) {
    return this.change(auth, id, base, ifMatch, async () => readGroup(body));
  }

  patch(auth: AuthContext, id: string, body: unknown, base: string, ifMatch?: string) {
    return this.change(auth, id, base, ifMatch, async (current) =>
      readGroup(await applyPatch('Group', current, body)),
    );
  }

  async remove(auth: AuthContext, id: string, base: string, ifMatch?: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      const row = await this.manageable(em, auth, id);
      await this.checkVersion(em, auth, row, base, ifMatch);
      await this.repo.deleteGroup(em, id);
      await this.emit(em, auth, 'group', id, 'delete', { id });
    });
  }

  private async change(
    auth: AuthContext,
    id: string,
    base: string,
    ifMatch: string | undefined,
    next: (current: Resource) => Promise<GroupInput>,
  ): Promise<Written> {
    await this.write(
      this.repo.transaction(async (em) => {
        const row = await this.manageable(em, auth, id);
        const current = await this.checkVersion(em, auth, row, base, ifMatch);
        const input = await next(current);
        if (input.name !== row.name || input.externalId !== row.external_id) {
          if (input.name !== row.name && (await this.repo.nameTaken(em, auth.systemDomainId, input.name, id)))
            throw taken();
          await this.repo.updateGroup(em, id, input.name, input.externalId);
          await this.emit(em, auth, 'group', id, 'update', { id, name: input.name });
        }
        const before = ((current.members ?? []) as { value: string }[]).map((m) => m.value);
        await this.setMembers(em, auth, id, before, await this.visible(em, auth, input.members));
      }),
    );
    return this.written(auth, id, base);
  }

  /** The group's visible members become `wanted`: each one joined or left is a webhook event. */
  private async setMembers(
    em: EntityManager,
    auth: AuthContext,
    groupId: string,
    before: string[],
    wanted: string[],
  ) {
    const keep = new Set(wanted);
    const had = new Set(before);
    const joined = await this.repo.addMembers(
      em,
      groupId,
      wanted.filter((u) => !had.has(u)),
    );
    const left = await this.repo.removeMembers(
      em,
      groupId,
      before.filter((u) => !keep.has(u)),
    );
    // the members are part of the resource: its lastModified (and version) move with them
    if (joined.length || left.length) await this.repo.touchGroup(em, groupId);
    for (const [ids, operation] of [
      [joined, 'create'],
      [left, 'delete'],
    ] as const) {
      for (const userId of ids)
        await this.emit(em, auth, 'group_member', groupId, operation, { group_id: groupId, user_id: userId });
    }
  }

  /** Member ids must name accounts SCIM sees (the domain owns them): anything else is a 400. */
  private async visible(em: EntityManager, auth: AuthContext, ids: string[]): Promise<string[]> {
    const uuids = ids.filter(isUuid);
    const owned = await this.repo.ownedAmong(em, auth.systemDomainId, uuids);
    const unknown = ids.filter((id) => !owned.has(id));
    if (unknown.length)
      throw new ScimError(
        400,
        `members: no such user in this domain: ${unknown.slice(0, 5).join(', ')}`,
        'invalidValue',
      );
    return ids;
  }

  /** The group, locked, if the token holds every role it carries. */
  private async manageable(em: EntityManager, auth: AuthContext, id: string): Promise<ScimGroupRow> {
    const row = await this.repo.group(auth.systemDomainId, id, em, true);
    if (!row) throw notFound();
    const missing = row.roles.filter((r) => !(auth.roles as Set<string>).has(r));
    if (missing.length)
      throw new ScimError(
        403,
        `The group carries roles a provisioning token does not hold: ${missing.join(', ')}`,
        'mutability',
      );
    return row;
  }

  /** The resource as it is now, its version checked against If-Match (requireVersion). */
  private async checkVersion(
    em: EntityManager,
    auth: AuthContext,
    row: ScimGroupRow,
    base: string,
    ifMatch?: string,
  ) {
    return requireVersion((await this.resources(em, auth, [row], base))[0], ifMatch);
  }

  private async current(em: EntityManager, auth: AuthContext, id: string, base: string) {
    const row = await this.repo.group(auth.systemDomainId, id, em);
    if (!row) throw notFound();
    return (await this.resources(em, auth, [row], base))[0];
  }

  private async written(auth: AuthContext, id: string, base: string): Promise<Written> {
    const resource = await this.current(this.repo.manager, auth, id, base);
    return { resource, version: versionOf(resource) };
  }

  private async resources(em: EntityManager, auth: AuthContext, rows: ScimGroupRow[], base: string) {
    const members = await this.repo.members(
      em,
      auth.systemDomainId,
      rows.map((r) => r.id),
    );
    return rows.map((r) =>
      groupResource(
        r,
        members.filter((m) => m.group_id === r.id),
        base,
      ),
    );
  }

  /** The audit record and webhook event of a change, as the groups service records its own. */
  private emit(
    em: EntityManager,
    auth: AuthContext,
    realm: 'group' | 'group_member',
    groupId: string,
    operation: 'create' | 'update' | 'delete',
    data: Record<string, unknown>,
  ): Promise<void> {
    const deps = { audit: this.audit, events: this.events };
    return recordGroupChange(em, deps, auth, { realm, groupId, operation, data, via: 'scim' });
  }

  private write<T>(op: Promise<T>): Promise<T> {
    return op.catch((e: unknown) => {
      throw isUniqueViolation(e) ? taken() : e;
    });
  }
}

const notFound = () => new ScimError(404, 'No such group in this domain');
const taken = () => new ScimError(409, 'A group with this displayName exists already', 'uniqueness');
