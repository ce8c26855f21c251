import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import { AssetEntity, AssetVersionEntity } from './asset.entity.js';
import { SystemDomainEntity } from './system-domain.entity.js';

/** One field of a view, as the spec's view_fields items. */
export interface ViewField {
  name: string;
  label: string | null;
  auto_set: boolean;
  hide_if_not_set: boolean;
  mapped_field_name: string | null;
  read_only: boolean;
  required: boolean;
  source_url: string | null;
}

/** A metadata view: the fields a client shows and edits together. */
@Entity('metadata_views')
@Index('ix_metadata_views_domain', ['system_domain_id', 'name'])
export class MetadataViewEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @ManyToOne(() => SystemDomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_domain_id' })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'jsonb', default: () => "'[]'" }) view_fields!: ViewField[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/** A category of objects of one type (`assets`), naming the views that describe them. */
@Entity('metadata_categories')
@Index('uq_metadata_categories_name', ['system_domain_id', 'object_type', 'name'], { unique: true })
export class MetadataCategoryEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @ManyToOne(() => SystemDomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_domain_id' })
  system_domain?: Relation<SystemDomainEntity>;
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
  @ManyToOne(() => AssetVersionEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'version_id' })
  version?: Relation<AssetVersionEntity>;
  @Column({ type: 'uuid' }) asset_id!: string;
  @ManyToOne(() => AssetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'asset_id' })
  asset?: Relation<AssetEntity>;
  /** `[{value}]`, as the spec's field_values. */
  @Column({ type: 'jsonb' }) field_values!: { value: unknown }[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
