import { wireDate } from '../../base/common/http/wire-date.js';
import type { AssetDto, AssetVersionDto } from './dto/asset.dto.js';
import type { AssetEntity, AssetVersionEntity } from '../../base/model/asset.entity.js';

export function versionView(v: AssetVersionEntity): AssetVersionDto {
  return {
    id: v.id,
    analyze_status: v.analyze_status,
    archive_status: v.archive_status,
    status: v.status,
    transcribe_status: v.transcribe_status,
    is_online: v.is_online,
    created_by_user: v.created_by_user,
    date_created: wireDate(v.date_created),
  };
}

export function assetView(
  a: AssetEntity,
  versions: AssetVersionEntity[],
  permissions: string[],
  inCollections: string[] = [],
): AssetDto {
  return {
    id: a.id,
    title: a.title,
    type: a.type,
    status: a.status,
    analyze_status: a.analyze_status,
    archive_status: a.archive_status,
    external_id: a.external_id,
    is_online: a.is_online,
    media_type: a.media_type,
    object_type: 'assets',
    system_domain_id: a.system_domain_id,
    created_by_user: a.created_by_user,
    deleted_by_user: a.deleted_by_user,
    date_created: wireDate(a.date_created),
    date_modified: wireDate(a.date_modified),
    date_deleted: a.date_deleted ? wireDate(a.date_deleted) : null,
    permissions,
    versions: versions.map(versionView),
    versions_number: versions.length,
    in_collections: inCollections,
  };
}
