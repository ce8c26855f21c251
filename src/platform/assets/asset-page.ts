import { ASSET_PERMISSIONS } from '../../base/model/asset-acl.entity.js';
import type { AssetEntity, AssetVersionEntity } from '../../base/model/asset.entity.js';
import { canonical } from './asset-permissions.js';
import type { PageRow } from './assets.repository.js';
import { assetView } from './asset-view.js';
import type { AssetDto } from './dto/asset.dto.js';

export interface AssetPageItem {
  /** The asset as GET answers it (versions, the caller's permissions). */
  view: AssetDto;
  /** The current version's metadata: field → its values. */
  metadata: Record<string, unknown[]>;
}

/**
 * The rows of a page (AssetsRepository.pageRows: one statement, where building a page of search hits took
 * four round trips) as items: each readable asset (`read` through the ACL, or `all` for an administrator)
 * with its versions, the caller's permissions and its current metadata. The others are left out of the map.
 */
export function pageItems(rows: PageRow[], all: boolean): Map<string, AssetPageItem> {
  const out = new Map<string, AssetPageItem>();
  for (const { permissions, versions, metadata, in_collections, ...asset } of rows) {
    const perms = all ? [...ASSET_PERMISSIONS] : canonical(permissions ?? []);
    if (!perms.includes('read')) continue;
    const versionRows = versions.map((v) => ({ ...v, date_created: new Date(v.date_created) }));
    out.set(asset.id, {
      view: assetView(asset as AssetEntity, versionRows as AssetVersionEntity[], perms, in_collections ?? []),
      metadata: metadata ?? {},
    });
  }
  return out;
}
