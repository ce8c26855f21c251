import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { InvalidationBus } from '../../base/common/cache/invalidation-bus.js';
import { APPS_TOPIC } from '../../base/common/cache/topics.js';
import { Clock } from '../../base/common/clock.js';
import { ApiError } from '../../base/common/errors/api-error.js';
import { ScimError } from '../../base/common/errors/scim-error.js';
import { isUniqueViolation } from '../../base/database/sql-helpers.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { assertSeat, lockDomain } from '../../accounts/users/seat-limits.js';
import { recordUserChange, type UserChange } from '../../accounts/users/user-change.js';
import { userView } from '../../accounts/users/user-view.js';
import { TokensService } from '../../credentials/tokens/tokens.service.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { ScimRepository, type ScimUserRow } from './scim.repository.js';
import { applyPatch } from './scim-patch.js';
import { projection, type ScimListQuery } from './scim-query.js';
import {
  listOf,
  project,
  readUser,
  requireVersion,
  type Resource,
  type UserInput,
  userResource,
  versionOf,
  type Written,
} from './scim-resources.js';

/**
 * SCIM Users (RFC 7644 §3) over the accounts the token's domain owns (the sign-in authority's rule,
 * ownership.ts): a provisioning client sees and changes those only. `userName` is the account's email; an
 * email any other account holds (another tenant's member, a super administrator, one of this domain's) is a
 * 409 `uniqueness` that changes nothing. `active: false` makes the account inactive and revokes its tokens at
 * once; DELETE deletes the account (the domain owned it alone). Every change is one transaction with its
 * audit record and webhook event.
 */
@Injectable()
export class ScimUsersService {
  constructor(
    private readonly repo: ScimRepository,
    private readonly tokens: TokensService,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
    private readonly bus: InvalidationBus,
    private readonly clock: Clock,
  ) {}

  list(auth: AuthContext, q: ScimListQuery, base: string) {
    return listOf('User', q, async (narrow) =>
      this.resources(auth.systemDomainId, await this.repo.users(auth.systemDomainId, narrow), base),
    );
  }

  async get(auth: AuthContext, id: string, base: string, q: ScimListQuery = {}): Promise<Written> {
    const resource = await this.current(auth.systemDomainId, id, base);
    return { resource: project(resource, 'User', projection(q)), version: versionOf(resource) };
  }

  async create(auth: AuthContext, body: unknown, base: string): Promise<Written> {
    const input = readUser(body);
    const domainId = auth.systemDomainId;
    const id = await this.unique(async (em) => {
      await lockDomain(em, domainId);
      if (await this.repo.emailTaken(em, input.email)) throw taken();
      if (input.status === 'ACTIVE') await this.seat(em, domainId);
      const created = await this.repo.insertUser(em, domainId, {
        email: input.email,
        first_name: input.firstName,
        last_name: input.lastName,
        status: input.status,
      });
      await this.saveProfile(em, created.id, domainId, input);
      await this.emit(em, auth, created, 'create');
      return created.id;
    });
    return this.written(auth, id, base);
  }

  replace(auth: AuthContext, id: string, body: unknown, base: string, ifMatch?: string) {
    return this.change(auth, id, base, ifMatch, async () => readUser(body));
  }

  patch(auth: AuthContext, id: string, body: unknown, base: string, ifMatch?: string) {
    return this.change(auth, id, base, ifMatch, async (current) =>
      readUser(await applyPatch('User', current, body), current.userName as string),
    );
  }

  async remove(auth: AuthContext, id: string, base: string, ifMatch?: string): Promise<void> {
    await this.repo.transaction(async (em) => {
      const row = await this.locked(em, auth.systemDomainId, id);
      await this.checkVersion(em, auth, row, base, ifMatch);
      if (id === auth.userId)
        throw new ScimError(
          403,
          'A provisioning token cannot delete the administrator it acts for',
          'mutability',
        );
      await this.emit(em, auth, { id } as UserEntity, 'delete');
      await this.repo.deleteUser(em, id);
    });
    // apps that acted as the deleted account lost their acting user (ON DELETE SET NULL)
    await this.bus.publish(APPS_TOPIC, null);
  }

  /** PUT and PATCH: the account as `next` says, from its locked current form, in one transaction. */
  private async change(
    auth: AuthContext,
    id: string,
    base: string,
    ifMatch: string | undefined,
    next: (current: Resource) => Promise<UserInput>,
  ): Promise<Written> {
    const domainId = auth.systemDomainId;
    await this.unique(async (em) => {
      await lockDomain(em, domainId);
      const row = await this.locked(em, domainId, id);
      const current = await this.checkVersion(em, auth, row, base, ifMatch);
      const input = await next(current);
      const changes: Partial<UserEntity> = {};
      if (input.email !== row.email) {
        if (await this.repo.emailTaken(em, input.email, id)) throw taken();
        Object.assign(changes, { email: input.email, email_verified_at: null });
      }
      if (input.firstName !== row.first_name) changes.first_name = input.firstName;
      if (input.lastName !== row.last_name) changes.last_name = input.lastName;
      if (input.status !== row.status) {
        if (input.status === 'INACTIVE' && id === auth.userId)
          throw new ScimError(
            403,
            'A provisioning token cannot deactivate the administrator it acts for',
            'mutability',
          );
        if (input.status === 'ACTIVE') await this.seat(em, domainId, id);
        changes.status = input.status;
      }
      if (Object.keys(changes).length) await this.repo.updateUser(em, id, changes);
      // the lookup refuses inactive users already; revoking too keeps a reactivation from reviving them
      if (changes.status === 'INACTIVE')
        await this.tokens.revokeWhere({ user_id: id }, { em, requestId: auth.requestId });
      const profileChanged =
        input.externalId !== row.external_id ||
        input.displayName !== row.display_name ||
        canonical(input.enterprise) !== canonical(row.enterprise ?? {});
      if (profileChanged) await this.saveProfile(em, id, domainId, input);
      if (Object.keys(changes).length || profileChanged) {
        await this.emit(em, auth, await this.repo.account(em, id), 'update');
      }
    });
    return this.written(auth, id, base);
  }

  /**
   * A transaction that writes an email: two domains' provisioning clients creating (or renaming to) one
   * address at once each lock their own domain, so the unique index decides, and the loser is a 409 too.
   */
  private unique<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.repo.transaction(work).catch((e: unknown) => {
      throw isUniqueViolation(e) ? taken() : e;
    });
  }

  private async locked(em: EntityManager, domainId: string, id: string): Promise<ScimUserRow> {
    const row = await this.repo.user(domainId, id, em, true);
    if (!row) throw notFound();
    return row;
  }

  /** The resource as it is now, its version checked against If-Match (requireVersion). */
  private async checkVersion(
    em: EntityManager,
    auth: AuthContext,
    row: ScimUserRow,
    base: string,
    ifMatch?: string,
  ) {
    return requireVersion((await this.resources(auth.systemDomainId, [row], base, em))[0], ifMatch);
  }

  private async seat(em: EntityManager, domainId: string, excludeUserId?: string): Promise<void> {
    try {
      await assertSeat(em, domainId, 'STANDARD', {
        now: this.clock.now(),
        countPending: true,
        excludeUserId,
      });
    } catch (e) {
      if (e instanceof ApiError) throw new ScimError(403, `No seat left in the domain: ${e.message}`);
      throw e;
    }
  }

  private saveProfile(em: EntityManager, userId: string, domainId: string, input: UserInput) {
    return this.repo.saveProfile(em, {
      userId,
      domainId,
      externalId: input.externalId,
      displayName: input.displayName,
      enterprise: input.enterprise,
    });
  }

  private async current(domainId: string, id: string, base: string): Promise<Resource> {
    const row = await this.repo.user(domainId, id);
    if (!row) throw notFound();
    return (await this.resources(domainId, [row], base))[0];
  }

  private async written(auth: AuthContext, id: string, base: string): Promise<Written> {
    const resource = await this.current(auth.systemDomainId, id, base);
    return { resource, version: versionOf(resource) };
  }

  private async resources(
    domainId: string,
    rows: ScimUserRow[],
    base: string,
    em: EntityManager = this.repo.manager,
  ): Promise<Resource[]> {
    const groups = await this.repo.groupsOf(
      em,
      domainId,
      rows.map((r) => r.id),
    );
    return rows.map((r) =>
      userResource(
        r,
        groups.filter((g) => g.user_id === r.id),
        base,
      ),
    );
  }

  /** The audit record and webhook event of a change, as the users service records its own (user-change.ts). */
  private emit(em: EntityManager, auth: AuthContext, user: UserEntity, operation: UserChange['operation']) {
    return recordUserChange(em, { audit: this.audit, events: this.events }, auth, {
      userId: user.id,
      operation,
      data: operation === 'delete' ? { id: user.id } : { ...userView(user, auth.systemDomainId, false) },
      via: 'scim',
    });
  }
}

/** JSON with its keys sorted at every level: jsonb keeps its own key order. */
function canonical(v: unknown): string {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return JSON.stringify(v);
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

const notFound = () => new ScimError(404, 'No such user in this domain');
const taken = () => new ScimError(409, 'An account with this userName (email) exists already', 'uniqueness');
