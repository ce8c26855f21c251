import { ApiProperty } from '@nestjs/swagger';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import { BoolField, EnumField, StringField } from '../../../base/common/validation/fields.js';
import { FacetDto } from '../../../accounts/system-domains/dto/system-domain.dto.js';
import { ASSET_PERMISSIONS } from '../../../base/model/asset-acl.entity.js';
import { ASSET_TYPES } from '../../../base/model/asset.entity.js';
import { QueryFlag } from './query-flag.js';

/** Statuses a client may set: DELETED comes only from DELETE. */
const WRITABLE_STATUSES = ['ACTIVE'] as const;

/** Body of POST /API/assets/v1/assets/. */
export class CreateAssetDto {
  @StringField({ minLength: 1, maxLength: 1000, description: 'Searchable' }) title!: string;
  @EnumField(ASSET_TYPES, { required: false, description: 'Default ASSET' }) type?: string;
  @EnumField(WRITABLE_STATUSES, { required: false, description: 'Default ACTIVE' }) status?: string;
  @StringField({ required: false, maxLength: 50, description: 'Default N/A' }) analyze_status?: string;
  @StringField({ required: false, maxLength: 50, description: 'Default NOT_ARCHIVED' })
  archive_status?: string;
  @StringField({ required: false, nullable: true, maxLength: 500 }) external_id?: string | null;
  @BoolField({ required: false, description: 'Default true' }) is_online?: boolean;
  @StringField({ required: false, nullable: true, maxLength: 200 }) media_type?: string | null;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 36,
    description:
      'With ?assign_to_collection=true: the collection to add the new asset to (one the caller may write); empty is ignored',
  })
  collection_id?: string | null;
}

export class CreateAssetQueryDto {
  @QueryFlag('Add the new asset to the body’s collection_id (default false)')
  assign_to_collection?: boolean;
}

/** Body of PATCH and PUT /API/assets/v1/assets/{asset_id}/: any subset of the writable fields. */
export class UpdateAssetDto {
  @StringField({ required: false, minLength: 1, maxLength: 1000 }) title?: string;
  @EnumField(ASSET_TYPES, { required: false }) type?: string;
  @EnumField(WRITABLE_STATUSES, { required: false }) status?: string;
  @StringField({ required: false, maxLength: 50 }) analyze_status?: string;
  @StringField({ required: false, maxLength: 50 }) archive_status?: string;
  @StringField({ required: false, nullable: true, maxLength: 500 }) external_id?: string | null;
  @BoolField({ required: false }) is_online?: boolean;
  @StringField({ required: false, nullable: true, maxLength: 200 }) media_type?: string | null;
}

/** A page of a list searched by title (assets, collections). */
export class TitleListQueryDto extends PageQueryDto {
  @StringField({ required: false, maxLength: 200, description: 'Case-insensitive substring of the title' })
  query?: string;
}

export class AssetListQueryDto extends TitleListQueryDto {}

export class AssetVersionDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() analyze_status!: string;
  @ApiProperty() archive_status!: string;
  @ApiProperty() status!: string;
  @ApiProperty() transcribe_status!: string;
  @ApiProperty() is_online!: boolean;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) created_by_user!: string | null;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
}

export class AssetDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ enum: ASSET_TYPES }) type!: string;
  @ApiProperty({ enum: ['ACTIVE', 'DELETED'] }) status!: string;
  @ApiProperty() analyze_status!: string;
  @ApiProperty() archive_status!: string;
  @ApiProperty({ nullable: true, type: String }) external_id!: string | null;
  @ApiProperty() is_online!: boolean;
  @ApiProperty({ nullable: true, type: String }) media_type!: string | null;
  @ApiProperty({ enum: ['assets'] }) object_type!: string;
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) created_by_user!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) deleted_by_user!: string | null;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) date_deleted!: string | null;
  @ApiProperty({
    type: [String],
    enum: ASSET_PERMISSIONS,
    description: 'The caller’s permissions on the asset (its ACL entries and those of the caller’s groups)',
  })
  permissions!: string[];
  @ApiProperty({ type: [AssetVersionDto] }) versions!: AssetVersionDto[];
  @ApiProperty({
    type: [String],
    required: false,
    description: 'Ids of the collections containing the asset that the caller may read',
  })
  in_collections?: string[];
  @ApiProperty({ type: 'integer' }) versions_number!: number;
}

export class AssetFacetsDto {
  @ApiProperty({ type: FacetDto, description: 'Counts per type over the filtered list' }) type!: FacetDto;
  @ApiProperty({ type: FacetDto, description: 'Counts per status' }) status!: FacetDto;
}

export class AssetListDto extends ListEnvelopeDto(AssetDto) {
  @ApiProperty({ type: AssetFacetsDto }) facets!: AssetFacetsDto;
}
