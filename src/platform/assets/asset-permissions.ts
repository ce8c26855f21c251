import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { ASSET_PERMISSIONS, type AssetPermission } from '../../base/model/asset-acl.entity.js';
import { seesAllAssets } from './asset-acl-sql.js';
import { AssetsRepository } from './assets.repository.js';

/** Of the caller's permissions on each entity, those of the entities the caller may read, by id. */
export const readableOf = (
  rows: { id: string; permissions: AssetPermission[] }[],
): Map<string, AssetPermission[]> =>
  new Map(rows.filter((r) => r.permissions.includes('read')).map((r) => [r.id, r.permissions]));

/** In the canonical order read, write, delete, change-acl. */
export const canonical = (perms: Iterable<string>): AssetPermission[] => {
  const set = new Set(perms);
  return ASSET_PERMISSIONS.filter((p) => set.has(p));
};

/** The caller's permissions on assets (entries of the user and of the user's groups, or all for admins). */
@Injectable()
export class AssetPermissionsService {
  constructor(private readonly repo: AssetsRepository) {}

  /**
   * Of `ids`, the assets of the caller's domain that are not deleted, each with the caller's permissions
   * (possibly none). `em`: a transaction's manager to read in it (default: outside one).
   */
  async find(
    auth: AuthContext,
    ids: string[],
    em?: EntityManager,
  ): Promise<{ id: string; permissions: AssetPermission[] }[]> {
    if (ids.length === 0) return [];
    const on = em ?? this.repo.manager;
    if (seesAllAssets(auth)) {
      const found = await this.repo.liveIdsInDomain(on, ids, auth.systemDomainId);
      return found.map((id) => ({ id, permissions: [...ASSET_PERMISSIONS] }));
    }
    const rows = await this.repo.aclPermissions(on, ids, auth.systemDomainId, auth.userId);
    return rows.map((r) => ({ id: r.id, permissions: canonical(r.permissions ?? []) }));
  }

  /** The caller's permissions on each of `ids` the caller may read (a map without the others). */
  async readable(
    auth: AuthContext,
    ids: string[],
    em?: EntityManager,
  ): Promise<Map<string, AssetPermission[]>> {
    return readableOf(await this.find(auth, ids, em));
  }
}
