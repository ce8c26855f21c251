import type { AccessService } from '../../base/common/auth/access.service.js';
import type { AssetPermission } from '../../base/model/asset-acl.entity.js';
import type { AssetPermissionsService, EntityPermissions } from './asset-permissions.js';
import { AssetsErrors } from './assets.errors.js';

/**
 * The entity names routes declare (`access: { entity, param }`), one per permission the route needs. An
 * asset the caller may not read answers 404 whatever the route (another tenant's, deleted, or hidden by its
 * ACL: its existence is not confirmed); one they may read but lacking the permission answers 403.
 */
export const ASSET_ACCESS = {
  read: 'asset',
  write: 'asset.write',
  delete: 'asset.delete',
  'change-acl': 'asset.change-acl',
} as const satisfies Record<AssetPermission, string>;

export function registerAssetAccess(access: AccessService, permissions: AssetPermissionsService): void {
  for (const [permission, entity] of Object.entries(ASSET_ACCESS) as [AssetPermission, string][]) {
    access.register(entity, {
      label: 'Asset',
      notFound: () => AssetsErrors.NOT_FOUND(),
      find: async (auth, ids) =>
        readableOrDenied(await permissions.find(auth, ids), ids, permission, AssetsErrors.PERMISSION_DENIED),
    });
  }
}

/**
 * Of `found` (the caller's permissions on the `ids` that exist), those the caller may read; throws
 * `denied(permission)` when every one of `ids` is readable but one lacks `permission` (collections' too).
 */
export function readableOrDenied(
  found: EntityPermissions,
  ids: string[],
  permission: AssetPermission,
  denied: (permission: string) => Error,
): EntityPermissions {
  const readable = found.filter((r) => r.permissions.includes('read'));
  if (readable.length === ids.length && readable.some((r) => !r.permissions.includes(permission))) {
    throw denied(permission);
  }
  return readable;
}
