import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import { References } from './references.js';
import { DomainRow } from './system-domain.entity.js';
import { AssetEntity, AssetVersionEntity } from './asset.entity.js';
import { CollectionEntity } from './collection.entity.js';

/**
 * The field types of the registry: the values the published clients send and accept (`drop_down` takes
 * the values of its `options`, `tag_cloud` free words; several values need `multi`).
 */
export const FIELD_TYPES = [
  'string',
  'string_exact',
  'text',
  'integer',
  'float',
  'boolean',
  'date',
  'datetime',
  'drop_down',
  'tag_cloud',
  'url',
  'email',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One option of a `drop_down` field. */
export interface FieldOption {
  label: string | null;
  value: string;
}

/** A field of the domain's registry (MetadataFieldSchema): views name it, values are kept under its name. */
@Entity('metadata_fields')
@Index('uq_metadata_fields_name', ['system_domain_id', 'name'], { unique: true })
export class MetadataFieldEntity extends DomainRow {
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) label!: string;
  @Column({ type: 'text' }) field_type!: FieldType;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'text', nullable: true }) external_id!: string | null;
  @Column({ type: 'boolean', default: false }) auto_set!: boolean;
  @Column({ type: 'boolean', default: false }) hide_if_not_set!: boolean;
  @Column({ type: 'boolean', default: false }) is_block_field!: boolean;
  @Column({ type: 'boolean', default: false }) is_warning_field!: boolean;
  @Column({ type: 'text', nullable: true }) mapped_field_name!: string | null;
  @Column({ type: 'double precision', nullable: true }) max_value!: number | null;
  @Column({ type: 'double precision', nullable: true }) min_value!: number | null;
  @Column({ type: 'boolean', default: false }) multi!: boolean;
  @Column({ type: 'jsonb', default: () => "'[]'" }) options!: FieldOption[];
  @Column({ type: 'boolean', default: false }) read_only!: boolean;
  @Column({ type: 'boolean', default: false }) representative!: boolean;
  @Column({ type: 'boolean', default: false }) required!: boolean;
  @Column({ type: 'boolean', default: false }) sortable!: boolean;
  @Column({ type: 'text', nullable: true }) source_url!: string | null;
  @Column({ type: 'boolean', default: false }) use_as_facet!: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/** An entry of a view's view_fields: the name of a registered field (its definition is the registry's). */
export interface ViewFieldRef {
  name: string;
}

/** A metadata view: the fields a client shows and edits together. */
@Entity('metadata_views')
@Index('ix_metadata_views_domain', ['system_domain_id', 'name'])
export class MetadataViewEntity extends DomainRow {
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'jsonb', default: () => "'[]'" }) view_fields!: ViewFieldRef[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/** A category of objects of one type (`assets`), naming the views that describe them. */
@Entity('metadata_categories')
@Index('uq_metadata_categories_name', ['system_domain_id', 'object_type', 'name'], { unique: true })
export class MetadataCategoryEntity extends DomainRow {
  @Column({ type: 'text' }) object_type!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', nullable: true }) label!: string | null;
  @Column({ type: 'uuid', array: true, default: () => "'{}'" }) view_ids!: string[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/** The values of one field of an asset, per version of the asset. */
@Entity('metadata_values')
@Index('ix_metadata_values_asset', ['asset_id'])
export class MetadataValueEntity {
  @PrimaryColumn({ type: 'uuid' }) version_id!: string;
  @PrimaryColumn({ type: 'text' }) field_name!: string;
  @References(() => AssetVersionEntity, 'version_id') version?: Relation<AssetVersionEntity>;
  @Column({ type: 'uuid' }) asset_id!: string;
  @References(() => AssetEntity, 'asset_id') asset?: Relation<AssetEntity>;
  /** `[{value}]`, as the spec's field_values. */
  @Column({ type: 'jsonb' }) field_values!: { value: unknown }[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/** The values of one field of a collection (collections have no versions). */
@Entity('collection_metadata_values')
export class CollectionMetadataValueEntity {
  @PrimaryColumn({ type: 'uuid' }) collection_id!: string;
  @PrimaryColumn({ type: 'text' }) field_name!: string;
  @References(() => CollectionEntity, 'collection_id') collection?: Relation<CollectionEntity>;
  /** `[{value}]`, as the spec's field_values. */
  @Column({ type: 'jsonb' }) field_values!: { value: unknown }[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
