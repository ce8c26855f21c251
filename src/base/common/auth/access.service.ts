import { Injectable } from '@nestjs/common';
import { AccessRepository } from './access.repository.js';
import { AuthErrors } from './auth.errors.js';
import { isUuid } from '../validation/uuid.js';
import type { AuthContext } from './auth-context.js';
import type { ApiError } from '../errors/api-error.js';

/** How one feature checks access to its own entity type: registered with AccessService by that feature. */
export interface AccessChecker {
  /** The entity as 404s name it ("App not found"). */
  label: string;
  /** Of `ids` (UUIDs), those that exist in the caller's domain, with their owner where ownership matters. */
  find(auth: AuthContext, ids: string[]): Promise<{ id: string; owner_id?: string }[]>;
  /** Only the owner (or an administrator) may reach the entity: tokens. */
  ownerOnly?: boolean;
  /** The feature's own 404 (its published wording), instead of "<label> not found". */
  notFound?: () => ApiError;
}

/**
 * ACL checks over sets of ids, through a registry: each feature registers the checker of its entity type
 * (apps, tokens, users, groups today), so this file knows no feature's tables. The entities must exist in
 * the caller's domain (else 404, so other tenants' ids are not even confirmed), and owner-only entities need
 * ownership or an administrator (else 404 too, for the same reason). The guard's ACL step calls it for the
 * entity named by the route; services call it for ids found in bodies.
 */
@Injectable()
export class AccessService {
  private readonly checkers = new Map<string, AccessChecker>();

  constructor(private readonly repo: AccessRepository) {}

  register(entity: string, checker: AccessChecker): void {
    if (this.checkers.has(entity)) throw new Error(`An access checker for "${entity}" is already registered`);
    this.checkers.set(entity, checker);
  }

  /**
   * A checker from one SQL query over `$1::uuid[]` (the ids) and `$2` (the caller's domain) that returns `id`
   * (and `owner_id` for owner-only entities).
   */
  registerQuery(entity: string, label: string, sql: string, ownerOnly = false): void {
    this.register(entity, {
      label,
      ownerOnly,
      find: (auth, ids) => this.repo.find(sql, ids, auth.systemDomainId),
    });
  }

  /** The entity types with a checker (the route-policy test holds every route's `access` against it). */
  entities(): string[] {
    return [...this.checkers.keys()];
  }

  async require(auth: AuthContext, entity: string, ids: string[]): Promise<void> {
    const checker = this.checkers.get(entity);
    // a route naming an entity nobody registered is a programming error: a 500, not a silent pass
    if (!checker) throw new Error(`No access checker registered for "${entity}"`);
    const unique = [...new Set(ids)];
    if (unique.length === 0) return;
    const notFound = () => checker.notFound?.() ?? AuthErrors.NOT_FOUND(checker.label);
    if (unique.some((id) => !isUuid(id))) throw notFound();
    const rows = await checker.find(auth, unique);
    if (rows.length !== unique.length) throw notFound();
    // another user's entity answers like an unknown one: a non-administrator learns nothing about its id
    if (checker.ownerOnly && !auth.isAdmin && rows.some((r) => r.owner_id !== auth.userId)) {
      throw notFound();
    }
  }
}
