import { ApiProperty } from '@nestjs/swagger';
import { ArrayUnique } from 'class-validator';
import { StringArrayField } from '../../../base/common/validation/fields.js';
import { ASSET_PERMISSIONS } from '../../../base/model/asset-acl.entity.js';

/** Body of PUT …/acl/assets/{asset_id}/: the entry's whole set of permissions. */
export class AclBodyDto {
  @StringArrayField({
    in: ASSET_PERMISSIONS,
    maxItems: ASSET_PERMISSIONS.length,
    description: 'The entry’s permissions (replacing the previous ones); a caller grants only what they hold',
  })
  @ArrayUnique({ message: 'permissions must not repeat' })
  permissions!: string[];
}

class AclEntryBase {
  @ApiProperty({ enum: ['assets', 'collections'] }) object_type!: string;
  @ApiProperty({ format: 'uuid', description: 'The asset’s or the collection’s id' }) object_key!: string;
  @ApiProperty({ type: [String], enum: ASSET_PERMISSIONS }) permissions!: string[];
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}

export class UserAclDto extends AclEntryBase {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
}

export class GroupAclDto extends AclEntryBase {
  @ApiProperty({ format: 'uuid' }) group_id!: string;
}

export class UserAclItemDto {
  @ApiProperty({ format: 'uuid' }) user_id!: string;
  @ApiProperty({ type: [String], enum: ASSET_PERMISSIONS }) permissions!: string[];
}

export class GroupAclItemDto {
  @ApiProperty({ format: 'uuid' }) group_id!: string;
  @ApiProperty({ type: [String], enum: ASSET_PERMISSIONS }) permissions!: string[];
}

/** An object's whole ACL. Assets inherit nothing and propagate nothing: those lists are empty. */
export class ObjectAclDto {
  @ApiProperty({ type: [UserAclItemDto] }) users_acl!: UserAclItemDto[];
  @ApiProperty({ type: [GroupAclItemDto] }) groups_acl!: GroupAclItemDto[];
  @ApiProperty({ type: [UserAclItemDto] }) inherited_users_acl!: UserAclItemDto[];
  @ApiProperty({ type: [GroupAclItemDto] }) inherited_groups_acl!: GroupAclItemDto[];
  @ApiProperty({ type: [UserAclItemDto] }) propagating_users_acl!: UserAclItemDto[];
  @ApiProperty({ type: [GroupAclItemDto] }) propagating_groups_acl!: GroupAclItemDto[];
}

export class PermissionsDto {
  @ApiProperty({ type: [String], enum: ASSET_PERMISSIONS, description: 'The caller’s permissions' })
  permissions!: string[];
}
