import { Entity, Index } from 'typeorm';
import { AclEntryColumns } from './acl-entry.js';
import { AssetRow } from './asset.entity.js';

/** The permissions an entity ACL entry can grant. */
export const ASSET_PERMISSIONS = ['read', 'write', 'delete', 'change-acl'] as const;
export type AssetPermission = (typeof ASSET_PERMISSIONS)[number];

/**
 * One entry of an asset's ACL: a user's or a group's permissions on it (exactly one of user_id and group_id).
 * A caller's permissions are the union of their own entry and their groups' entries; a domain administrator
 * holds all of them on every asset of the domain.
 */
@Entity('asset_acls')
@Index('uq_asset_acls_user', ['asset_id', 'user_id'], { unique: true, where: '"user_id" IS NOT NULL' })
@Index('uq_asset_acls_group', ['asset_id', 'group_id'], { unique: true, where: '"group_id" IS NOT NULL' })
@Index('ix_asset_acls_asset', ['asset_id'])
@Index('ix_asset_acls_user', ['user_id'])
@Index('ix_asset_acls_group', ['group_id'])
// a search's per-candidate lookup of the caller's own read entry, answered from the index alone
@Index('ix_asset_acls_user_read', ['user_id', 'asset_id'], {
  where: `"user_id" IS NOT NULL AND 'read' = ANY("permissions")`,
})
export class AssetAclEntity extends AclEntryColumns(AssetRow) {}
