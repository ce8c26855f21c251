import { Inject, Injectable } from '@nestjs/common';
import { UsersErrors } from './users.errors.js';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { assertRoles } from '../../base/common/auth/assert-roles.js';
import { requireAccountChange } from '../../base/common/auth/account-change.js';
import { APP_CONFIG, type BaseConfig } from '../../base/config/config.js';
import { hashPassword } from '../../base/common/crypto/passwords.js';
import type { ListEnvelope } from '../../base/common/http/list-envelope.js';
import { searchedPageList } from '../../base/common/http/page-list.js';
import { InvalidationBus } from '../../base/common/cache/invalidation-bus.js';
import { APPS_TOPIC } from '../../base/common/cache/topics.js';
import { TokensService } from '../../credentials/tokens/tokens.service.js';
import { ActingRightsService } from '../../credentials/tokens/acting-rights.service.js';
import type {
  CreateUserDto,
  UpdateUserDto,
  UserBasicDto,
  UserDto,
  UserListQueryDto,
  UserRolesDto,
} from './dto/user.dto.js';
import type { UserEntity } from '../../base/model/user.entity.js';
import { UsersRepository } from './users.repository.js';
import { rolesView, userBasicView, userView } from './user-view.js';
import { type DomainUser, refuseSelfLockout, requireRank } from './user-rules.js';
import { WebhookEventsService } from '../../delivery/events/webhook-events.service.js';
import { PasswordPolicyService } from '../passwords/password-policy.service.js';
import { Clock } from '../../base/common/clock.js';
import { AuditService } from '../../delivery/audit/audit.service.js';
import { recordUserChange } from './user-change.js';

const SORTABLE = ['email', 'first_name', 'last_name', 'date_created'] as const;
/**
 * Fields of the account itself, shared by every domain the user belongs to (names too: another domain sees
 * them). is_admin is not among them: administrator rights belong to the membership of one domain.
 */
const ACCOUNT_FIELDS = [
  'email',
  'password',
  'status',
  'is_super_admin',
  'first_name',
  'last_name',
  'type',
] as const;
/** What signs the account in everywhere: changed only by the person signed in, never by an app's token. */
const CREDENTIAL_FIELDS = ['email', 'password'] as const;

/** Users of the caller's domain: every query joins the membership of `auth.systemDomainId`. */
@Injectable()
export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly tokens: TokensService,
    private readonly bus: InvalidationBus,
    private readonly rights: ActingRightsService,
    private readonly events: WebhookEventsService,
    private readonly audit: AuditService,
    private readonly passwords: PasswordPolicyService,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: BaseConfig,
  ) {}

  /** Not through the membership: super administrators may act in domains they do not belong to. */
  async current(auth: AuthContext): Promise<UserDto> {
    const user = await this.repo.findAccount(auth.userId);
    if (!user) throw UsersErrors.NOT_FOUND();
    const [view] = await this.repo.withMemberships(auth.systemDomainId, [
      userView(user, auth.systemDomainId, auth.isAdmin),
    ]);
    return view;
  }

  /**
   * What the presented credential may use: the caller's roles in this domain cut down to the token's ceiling,
   * as the guard computed them (GET /v1/users/current/ reports `is_admin` the same way). An OAuth token's
   * scopes narrow this further; they are the token's, not the user's, and are not applied here.
   */
  currentRoles(auth: AuthContext): UserRolesDto {
    return rolesView(auth.roles);
  }

  /** A member's effective roles in the caller's domain (the route's ACL has found them there). */
  async roles(auth: AuthContext, id: string): Promise<UserRolesDto> {
    const rights = await this.rights.rightsOf(id, auth.systemDomainId);
    if (!rights?.member) throw UsersErrors.NOT_FOUND();
    return rolesView(rights.roles);
  }

  async list(auth: AuthContext, q: UserListQueryDto, path: string): Promise<ListEnvelope<UserDto>> {
    return this.page(auth, q, path, async (rows) => {
      const admins = await this.repo.adminsAmong(
        auth.systemDomainId,
        rows.map((u) => u.id),
      );
      return this.repo.withMemberships(
        auth.systemDomainId,
        rows.map((u) => userView(u, auth.systemDomainId, admins.has(u.id))),
      );
    });
  }

  /** The picker's list: any member of the domain sees who else is in it, in the basic form. */
  async basicList(auth: AuthContext, q: UserListQueryDto, path: string): Promise<ListEnvelope<UserBasicDto>> {
    return this.page(auth, q, path, (rows) => rows.map(userBasicView));
  }

  async get(auth: AuthContext, id: string): Promise<UserDto> {
    return this.view(await this.member(auth, id), auth);
  }

  /** A user of the caller's domain (administrators only, by route). Emails are unique across domains. */
  async create(auth: AuthContext, body: CreateUserDto): Promise<UserDto> {
    // the new user's only domain is the caller's: its PasswordChecks apply
    if (body.password) {
      await this.passwords.assert([auth.systemDomainId], body.password, {
        personal: [body.email, body.first_name, body.last_name],
      });
    }
    const passwordHash = body.password ? await hashPassword(body.password) : null;
    return this.repo.transaction(async (em) => {
      if (await this.repo.emailTaken(em, body.email)) throw UsersErrors.EMAIL_TAKEN();
      if ((body.status ?? 'ACTIVE') === 'ACTIVE') {
        await this.repo.assertSeat(em, auth.systemDomainId, body.type ?? 'STANDARD', {
          now: this.clock.now(),
          countPending: true,
        });
      }
      const userId = await this.repo.insert(
        em,
        {
          email: body.email,
          first_name: body.first_name ?? null,
          last_name: body.last_name ?? null,
          password_hash: passwordHash,
          status: body.status ?? 'ACTIVE',
          type: body.type ?? 'STANDARD',
          is_super_admin: auth.isSuperAdmin ? (body.is_super_admin ?? false) : false,
          system_domain_id: auth.systemDomainId,
          last_login: null,
        },
        body.is_admin ?? false,
      );
      const created = await this.view(await this.member(auth, userId, em), auth, em);
      await this.emit(em, auth, created.id, 'create', { ...created });
      return created;
    });
  }

  /**
   * Users may rename themselves; anything else needs can_write_users. Only administrators touch
   * administrators or `is_admin`, only super administrators touch super administrators. The account fields
   * (names, email, password, status) are shared with the user's other domains, so for a user who belongs to
   * another domain too only a super administrator (or the user) may change them: an administrator of one
   * tenant must not take over, rename or lock out an account of another. A token minted for an app never
   * changes its user's email or password (see docs/security.md). PATCH and PUT (by id and on current/) all
   * come here; every rule applies to the fields that differ from what is stored (see changesTo).
   */
  async update(auth: AuthContext, id: string, body: UpdateUserDto): Promise<UserDto> {
    const isSelf = id === auth.userId;
    return this.repo.transaction(async (em) => {
      const target = await this.member(auth, id, em, true);
      const patch = this.changesTo(target, body);
      if (!auth.isSuperAdmin) delete patch.is_super_admin; // documented as ignored, as on create
      const fields = Object.keys(patch).filter((k) => patch[k as keyof UpdateUserDto] !== undefined);
      const renamingSelf = isSelf && fields.every((f) => f === 'first_name' || f === 'last_name');
      if (!renamingSelf) {
        assertRoles(auth, ['can_write_users']);
        requireRank(auth, target);
        if (patch.is_admin !== undefined && !auth.isAdmin) throw UsersErrors.IS_ADMIN_ADMIN_ONLY();
        if (patch.type !== undefined && !auth.isAdmin) throw UsersErrors.TYPE_ADMIN_ONLY();
        if (isSelf) refuseSelfLockout(target, patch);
        const account = fields.some((f) => (ACCOUNT_FIELDS as readonly string[]).includes(f));
        if (
          account &&
          !isSelf &&
          !auth.isSuperAdmin &&
          (await this.repo.otherDomains(em, auth.systemDomainId, id)) > 0
        ) {
          throw UsersErrors.SHARED_ACCOUNT();
        }
      }
      // the account's factors are its person's: their own recent sign-in (never a token of an app acting as
      // them, whose rights are one domain's while the account's sign-in reaches them all)
      if (isSelf && fields.some((f) => (CREDENTIAL_FIELDS as readonly string[]).includes(f))) {
        requireAccountChange(auth, this.clock.now(), this.config.auth.reauthWindowSeconds);
      }
      if (patch.email !== undefined && patch.email !== target.email) {
        if (await this.repo.emailTaken(em, patch.email, id)) throw UsersErrors.EMAIL_TAKEN();
      }
      // judged against the checks of every domain the account belongs to (the strictest of them), once allowed
      if (patch.password) {
        await this.passwords.assert(await this.repo.domainIds(em, id), patch.password, {
          em,
          personal: [patch.email ?? target.email, target.first_name, target.last_name],
        });
      }
      // an active user of another type, or a user becoming active, takes a seat in each of their domains
      const nextType = patch.type ?? target.type;
      const nextStatus = patch.status ?? target.status;
      if (nextStatus === 'ACTIVE' && (nextType !== target.type || target.status !== 'ACTIVE')) {
        for (const domainId of await this.repo.domainIds(em, id)) {
          await this.repo.assertSeat(em, domainId, nextType, {
            now: this.clock.now(),
            countPending: true,
            excludeUserId: id,
          });
        }
      }
      // hashed only once allowed: argon2 is deliberately expensive, not work to do for refused callers
      const passwordHash = patch.password ? await hashPassword(patch.password) : undefined;
      // a new address is not proved until a mailed link or code is used there (OpenID Connect email_verified)
      const changes: Partial<UserEntity> = {
        ...(patch.email !== undefined ? { email: patch.email, email_verified_at: null } : {}),
        ...(patch.first_name !== undefined ? { first_name: patch.first_name } : {}),
        ...(patch.last_name !== undefined ? { last_name: patch.last_name } : {}),
        ...(passwordHash !== undefined ? { password_hash: passwordHash } : {}),
        ...(patch.status !== undefined ? { status: patch.status } : {}),
        ...(patch.type !== undefined ? { type: patch.type } : {}),
        ...(patch.is_super_admin !== undefined ? { is_super_admin: patch.is_super_admin } : {}),
      };
      if (Object.keys(changes).length > 0) {
        await this.repo.updateAccount(em, id, changes);
      }
      // what was mailed to the old address must not prove the new one (nor sign in or reset through it)
      if (patch.email !== undefined) await this.repo.retireMailedSecrets(em, id);
      if (patch.is_admin !== undefined) {
        await this.repo.setAdmin(em, auth.systemDomainId, id, patch.is_admin);
      }
      // the lookup already refuses inactive users; revoking too keeps a later reactivation from reviving them
      if (patch.status === 'INACTIVE' && target.status !== 'INACTIVE') {
        await this.tokens.revokeWhere({ user_id: id }, { em, requestId: auth.requestId });
      }
      const updated = await this.view(await this.member(auth, id, em), auth, em);
      // a PUT that sends back what is stored changes nothing, and tells nobody
      if (Object.keys(changes).length > 0 || patch.is_admin !== undefined) {
        await this.emit(em, auth, id, 'update', { ...updated });
      }
      if (patch.password) await this.audit.change(em, auth, 'password.changed', { type: 'user', id });
      return updated;
    });
  }

  /**
   * Removes the user from the caller's domain: their group memberships, pending invitations and tokens there
   * go too, and the account itself when no other domain has them. The row lock makes two domains removing
   * the same user at once agree on whether the account remains.
   */
  async remove(auth: AuthContext, id: string): Promise<void> {
    if (id === auth.userId) throw UsersErrors.DELETE_SELF();
    const domainId = auth.systemDomainId;
    const accountDeleted = await this.repo.transaction(async (em) => {
      const target = await this.member(auth, id, em, true);
      requireRank(auth, target);
      const next = await this.repo.removeMembership(em, domainId, id);
      // removed from this domain (the account may live on in others): this domain's webhooks hear a delete
      await this.emit(em, auth, id, 'delete', { id });
      if (!next) {
        await this.repo.deleteAccount(em, id);
        return true;
      }
      if (target.system_domain_id === domainId) {
        // the home domain must stay one of the memberships (and the foreign key forbids a dangling one)
        await this.repo.updateAccount(em, id, { system_domain_id: next });
      }
      return false;
    });
    // apps that acted as the deleted account lost their acting user (ON DELETE SET NULL)
    if (accountDeleted) await this.bus.publish(APPS_TOPIC, null);
  }

  /** The webhook event (and audit record) of a change to a user of the caller's domain (user-change.ts). */
  private emit(
    em: EntityManager,
    auth: AuthContext,
    id: string,
    operation: 'create' | 'update' | 'delete',
    data: Record<string, unknown>,
  ): Promise<void> {
    return recordUserChange(em, { audit: this.audit, events: this.events }, auth, {
      userId: id,
      operation,
      data,
    });
  }

  /**
   * The body without the fields that equal what is stored (what a GET shows), so a client that sends back
   * the whole object it read (PUT) asks only for what it changed: rights are checked on real changes. A
   * password is never shown, so it always counts as a change.
   */
  private changesTo(target: DomainUser, body: UpdateUserDto): UpdateUserDto {
    const shown: Partial<Record<keyof UpdateUserDto, unknown>> = {
      email: target.email,
      first_name: target.first_name,
      last_name: target.last_name,
      status: target.status,
      type: target.type ?? 'STANDARD',
      is_admin: target.is_admin || target.is_super_admin,
      is_super_admin: target.is_super_admin,
    };
    const patch = { ...body };
    for (const key of Object.keys(shown) as (keyof UpdateUserDto)[]) {
      if (patch[key] !== undefined && patch[key] === shown[key]) delete patch[key];
    }
    return patch;
  }

  /** A page of the caller's domain's members, filtered by `query` (email, first and last name), shown by `view`. */
  private page<T>(
    auth: AuthContext,
    q: UserListQueryDto,
    path: string,
    view: (rows: UserEntity[]) => T[] | Promise<T[]>,
  ): Promise<ListEnvelope<T>> {
    return searchedPageList({
      search: (text) => this.repo.search(auth.systemDomainId, text),
      alias: 'u',
      q,
      sortable: SORTABLE,
      defaultSort: [{ field: 'email', order: 'ASC' }],
      path,
      view,
    });
  }

  /** A member of the caller's domain, else 404; `lock` holds the user row until the transaction ends. */
  private async member(auth: AuthContext, id: string, em?: EntityManager, lock = false): Promise<DomainUser> {
    const user = await this.repo.member(auth.systemDomainId, id, { em, lock });
    if (!user) throw UsersErrors.NOT_FOUND();
    return user;
  }

  /** The published User: the user as this domain sees them, with their groups, teams and role groups here. */
  private async view(u: DomainUser, auth: AuthContext, em?: EntityManager): Promise<UserDto> {
    const [view] = await this.repo.withMemberships(
      auth.systemDomainId,
      [userView(u, auth.systemDomainId, u.is_admin)],
      em,
    );
    return view;
  }
}
