import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { ASSET_PERMISSIONS, type AssetPermission } from '../../base/model/asset-acl.entity.js';
import { canonical, readableOf } from './asset-permissions.js';
import { seesAllCollections } from './collection-acl-sql.js';
import { CollectionAclsRepository } from './collection-acls.repository.js';

/**
 * The caller's permissions on collections (the same four as on assets: read, write, delete, change-acl),
 * from the entries of the user and of the user's groups; administrators hold all of them.
 */
@Injectable()
export class CollectionPermissionsService {
  constructor(private readonly repo: CollectionAclsRepository) {}

  /**
   * Of `ids`, the collections of the caller's domain that are live (with `deleted`: in the delete queue),
   * each with the caller's permissions (possibly none). `em`: a transaction's manager to read in it.
   */
  async find(
    auth: AuthContext,
    ids: string[],
    em?: EntityManager,
    deleted = false,
  ): Promise<{ id: string; permissions: AssetPermission[] }[]> {
    if (ids.length === 0) return [];
    const on = em ?? this.repo.manager;
    if (seesAllCollections(auth)) {
      const found = await this.repo.idsInDomain(on, ids, auth.systemDomainId, deleted);
      return found.map((id) => ({ id, permissions: [...ASSET_PERMISSIONS] }));
    }
    const rows = await this.repo.aclPermissions(on, ids, auth.systemDomainId, auth.userId, deleted);
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
