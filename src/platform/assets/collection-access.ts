import type { AccessService } from '../../base/common/auth/access.service.js';
import type { AssetPermission } from '../../base/model/asset-acl.entity.js';
import { readableOrDenied } from './asset-access.js';
import type { CollectionPermissionsService } from './collection-permissions.js';
import { CollectionsErrors } from './collections.errors.js';

/**
 * The entity names collection routes declare (`access: { entity, param }`), one per permission, as
 * asset-access.ts for assets. A collection the caller may not read answers 404 whatever the route (another
 * tenant's, deleted, or hidden by its ACL); one they may read but lacking the permission answers 403.
 * `collection.deleted` is the delete queue's: a deleted collection on which the caller holds `delete`.
 */
export const COLLECTION_ACCESS = {
  read: 'collection',
  write: 'collection.write',
  delete: 'collection.delete',
  'change-acl': 'collection.change-acl',
} as const satisfies Record<AssetPermission, string>;
export const DELETED_COLLECTION_ACCESS = 'collection.deleted';

export function registerCollectionAccess(
  access: AccessService,
  permissions: CollectionPermissionsService,
): void {
  const checker = (permission: AssetPermission, deleted: boolean) => ({
    label: 'Collection',
    notFound: () => CollectionsErrors.NOT_FOUND(),
    find: async (auth: Parameters<CollectionPermissionsService['find']>[0], ids: string[]) =>
      readableOrDenied(
        await permissions.find(auth, ids, undefined, deleted),
        ids,
        permission,
        CollectionsErrors.PERMISSION_DENIED,
      ),
  });
  for (const [permission, entity] of Object.entries(COLLECTION_ACCESS) as [AssetPermission, string][]) {
    access.register(entity, checker(permission, false));
  }
  access.register(DELETED_COLLECTION_ACCESS, checker('delete', true));
}

/** The policies of routes on the path's collection (`:collection_id`): the role, then the permission. */
export const COLLECTION_ROUTE = {
  read: {
    roles: ['can_read_collections' as const],
    access: { entity: COLLECTION_ACCESS.read, param: 'collection_id' },
  },
  write: {
    roles: ['can_write_collections' as const],
    access: { entity: COLLECTION_ACCESS.write, param: 'collection_id' },
  },
  delete: {
    roles: ['can_delete_collections' as const],
    access: { entity: COLLECTION_ACCESS.delete, param: 'collection_id' },
  },
};
