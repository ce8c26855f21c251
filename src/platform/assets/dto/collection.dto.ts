import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ArrayUnique, IsUUID } from 'class-validator';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import {
  EnumField,
  StringArrayField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';
import { FacetDto } from '../../../accounts/system-domains/dto/system-domain.dto.js';
import { ASSET_PERMISSIONS } from '../../../base/model/asset-acl.entity.js';
import { COLLECTION_OBJECT_TYPES, COLLECTION_STATUSES } from '../../../base/model/collection.entity.js';
import { AssetDto, TitleListQueryDto } from './asset.dto.js';
import { QueryFlag } from './query-flag.js';

/** Statuses a client may set: DELETED comes only from DELETE. */
const WRITABLE_STATUSES = ['ACTIVE', 'HIDDEN'] as const;

/** Body of POST /API/assets/v1/collections/ (and of POST …/{id}/subcollections/, whose parent is the path's). */
export class CreateCollectionDto {
  @StringField({ minLength: 1, maxLength: 1000, description: 'Searchable' }) title!: string;
  @UuidField({
    required: false,
    nullable: true,
    description: 'The collection to nest it under: one of the domain the caller may read and write',
  })
  parent_id?: string | null;
  @EnumField(WRITABLE_STATUSES, { required: false, description: 'Default ACTIVE' }) status?: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) category?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 500 }) external_id?: string | null;
}

/** Body of PATCH and PUT /API/assets/v1/collections/{id}/: any subset of the writable fields. */
export class UpdateCollectionDto {
  @StringField({ required: false, minLength: 1, maxLength: 1000 }) title?: string;
  @UuidField({
    required: false,
    nullable: true,
    description:
      'Move it under another collection (null: make it a root); never under itself or a descendant',
  })
  parent_id?: string | null;
  @EnumField(WRITABLE_STATUSES, { required: false }) status?: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) category?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 500 }) external_id?: string | null;
}

export class CollectionListQueryDto extends TitleListQueryDto {}

export class CollectionDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() title!: string;
  @ApiProperty({ enum: COLLECTION_STATUSES }) status!: string;
  @ApiProperty({ nullable: true, type: String }) category!: string | null;
  @ApiProperty({ nullable: true, type: String }) external_id!: string | null;
  @ApiProperty({ enum: ['DISABLED', 'ENABLING', 'ENABLED'] }) custom_order_status!: string;
  @ApiProperty({ nullable: true, type: String }) custom_keyframe!: string | null;
  @ApiProperty({ nullable: true, type: String }) custom_poster!: string | null;
  @ApiProperty() favoured!: boolean;
  @ApiProperty({ type: [String] }) keyframe_asset_ids!: string[];
  @ApiProperty({ type: 'array', items: { type: 'object' } }) keyframes!: object[];
  @ApiProperty({ type: 'object', additionalProperties: true }) metadata!: Record<string, unknown>;
  @ApiProperty({ enum: ['collection'] }) object_type!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) parent_id!: string | null;
  @ApiProperty({
    type: [String],
    description: 'Ids of its ancestors the caller may read, the root first',
  })
  parents!: string[];
  @ApiProperty({ description: 'Without a parent' }) is_root!: boolean;
  @ApiProperty({
    type: [String],
    description: 'Ids of the collections containing it that the caller may read',
  })
  in_collections!: string[];
  @ApiProperty({ type: 'integer' }) position!: number;
  @ApiProperty({ nullable: true, type: String }) project_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) storage_id!: string | null;
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) created_by_user!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) deleted_by_user!: string | null;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) date_deleted!: string | null;
  @ApiProperty({
    type: [String],
    enum: ASSET_PERMISSIONS,
    description: 'The caller’s permissions on the collection',
  })
  permissions!: string[];
}

export class CollectionFacetsDto {
  @ApiProperty({ type: FacetDto, description: 'Counts per status over the filtered list' }) status!: FacetDto;
  @ApiProperty({ type: FacetDto, description: 'Counts per category' }) category!: FacetDto;
}

export class CollectionListDto extends ListEnvelopeDto(CollectionDto) {
  @ApiProperty({ type: CollectionFacetsDto }) facets!: CollectionFacetsDto;
}

/** The collections of one ancestry, the root first. */
export class CollectionPathDto {
  @ApiProperty({ type: [CollectionDto] }) objects!: CollectionDto[];
}

/** Body of POST …/collections/{id}/contents/. */
export class CollectionContentBodyDto {
  @UuidField({ description: 'The asset’s or the collection’s id' }) object_id!: string;
  @EnumField([...COLLECTION_OBJECT_TYPES, 'assets', 'collections'], {
    description: 'asset or collection (the plurals are taken too)',
  })
  object_type!: string;
}

/** One object in a collection (CollectionContentSchema). */
export class CollectionContentDto {
  @ApiProperty({ format: 'uuid' }) collection_id!: string;
  @ApiProperty({ format: 'uuid' }) object_id!: string;
  @ApiProperty({ enum: COLLECTION_OBJECT_TYPES }) object_type!: string;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
}

/** A page of a collection's contents: assets (object_type assets) and collections (object_type collection). */
@ApiExtraModels(AssetDto, CollectionDto)
export class CollectionContentsDto {
  @ApiProperty({
    type: 'array',
    items: { anyOf: [{ $ref: getSchemaPath(AssetDto) }, { $ref: getSchemaPath(CollectionDto) }] },
  })
  objects!: (AssetDto | CollectionDto)[];
  @ApiProperty({ type: 'integer' }) page!: number;
  @ApiProperty({ type: 'integer' }) pages!: number;
  @ApiProperty({ type: 'integer' }) per_page!: number;
  @ApiProperty({ type: 'integer' }) total!: number;
  @ApiProperty({ nullable: true, type: String }) first_url!: string | null;
  @ApiProperty({ nullable: true, type: String }) last_url!: string | null;
  @ApiProperty({ nullable: true, type: String }) next_url!: string | null;
  @ApiProperty({ nullable: true, type: String }) prev_url!: string | null;
}

/** Body of the delete queue's bulk routes. */
export class CollectionIdsDto {
  @StringArrayField({ maxItems: 1000, description: 'Ids of deleted collections of the caller’s domain' })
  @ArrayUnique({ message: 'collection_ids must not repeat' })
  @IsUUID('all', { each: true, message: 'each value must be a UUID' })
  collection_ids!: string[];
}

export class PropagateQueryDto {
  @QueryFlag(
    'Also grant the entry’s permissions on the contained assets and subcollections the caller may change the ACL of (default false)',
  )
  propagate?: boolean;
}
