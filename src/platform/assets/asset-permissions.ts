import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { ASSET_PERMISSIONS, type AssetPermission } from '../../base/model/asset-acl.entity.js';
import { seesAllAssets } from './asset-acl-sql.js';
import { AssetsRepository } from './assets.repository.js';

/** Of the caller's permissions on each entity, those of the entities the caller may read, by id. */
const readableOf = (rows: { id: string; permissions: AssetPermission[] }[]): Map<string, AssetPermission[]> =>
  new Map(rows.filter((r) => r.permissions.includes('read')).map((r) => [r.id, r.permissions]));

/** In the canonical order read, write, delete, change-acl. */
export const canonical = (perms: Iterable<string>): AssetPermission[] => {
  const set = new Set(perms);
  return ASSET_PERMISSIONS.filter((p) => set.has(p));
};

/** The caller's permissions on each of some entities, by id. */
export type EntityPermissions = { id: string; permissions: AssetPermission[] }[];

/**
 * What the permissions of assets and of collections share: `find` asks each entity's repository, here every
 * permission for those who see all the domain's entities, else the ACL's in canonical order.
 */
export abstract class EntityPermissionsService {
  /** The caller's permissions on each of `ids` the caller may read (a map without the others). */
  async readable(
    auth: AuthContext,
    ids: string[],
    em?: EntityManager,
  ): Promise<Map<string, AssetPermission[]>> {
    return readableOf(await this.find(auth, ids, em));
  }

  abstract find(auth: AuthContext, ids: string[], em?: EntityManager): Promise<EntityPermissions>;

  /** No statement for no ids; all four on the `live` ids when `seesAll`, else the `acl` rows' permissions. */
  protected async permissionsOf(
    ids: string[],
    seesAll: boolean,
    live: () => Promise<string[]>,
    acl: () => Promise<{ id: string; permissions: string[] | null }[]>,
  ): Promise<EntityPermissions> {
    if (ids.length === 0) return [];
    if (seesAll) return (await live()).map((id) => ({ id, permissions: [...ASSET_PERMISSIONS] }));
    return (await acl()).map((r) => ({ id: r.id, permissions: canonical(r.permissions ?? []) }));
  }
}

/** The caller's permissions on assets (entries of the user and of the user's groups, or all for admins). */
@Injectable()
export class AssetPermissionsService extends EntityPermissionsService {
  constructor(private readonly repo: AssetsRepository) {
    super();
  }

  /**
   * Of `ids`, the assets of the caller's domain that are not deleted, each with the caller's permissions
   * (possibly none). `em`: a transaction's manager to read in it (default: outside one).
   */
  find(auth: AuthContext, ids: string[], em?: EntityManager): Promise<EntityPermissions> {
    const on = em ?? this.repo.manager;
    return this.permissionsOf(
      ids,
      seesAllAssets(auth),
      () => this.repo.liveIdsInDomain(on, ids, auth.systemDomainId),
      () => this.repo.aclPermissions(on, ids, auth.systemDomainId, auth.userId),
    );
  }
}
