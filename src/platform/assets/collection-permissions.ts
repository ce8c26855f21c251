import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { type EntityPermissions, EntityPermissionsService } from './asset-permissions.js';
import { seesAllCollections } from './collection-acl-sql.js';
import { CollectionAclsRepository } from './collection-acls.repository.js';

/**
 * The caller's permissions on collections (the same four as on assets: read, write, delete, change-acl),
 * from the entries of the user and of the user's groups; administrators hold all of them.
 */
@Injectable()
export class CollectionPermissionsService extends EntityPermissionsService {
  constructor(private readonly repo: CollectionAclsRepository) {
    super();
  }

  /**
   * Of `ids`, the collections of the caller's domain that are live (with `deleted`: in the delete queue),
   * each with the caller's permissions (possibly none). `em`: a transaction's manager to read in it.
   */
  find(auth: AuthContext, ids: string[], em?: EntityManager, deleted = false): Promise<EntityPermissions> {
    const on = em ?? this.repo.manager;
    return this.permissionsOf(
      ids,
      seesAllCollections(auth),
      () => this.repo.idsInDomain(on, ids, auth.systemDomainId, deleted),
      () => this.repo.aclPermissions(on, ids, auth.systemDomainId, auth.userId, deleted),
    );
  }
}
