import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import { References } from './references.js';
import { DomainRow } from './system-domain.entity.js';

export const ASSET_TYPES = [
  'ASSET',
  'SEQUENCE',
  'NLE_PROJECT',
  'PLACEHOLDER',
  'CUSTOM',
  'LINK',
  'SUBCLIP',
] as const;
export const ASSET_STATUSES = ['ACTIVE', 'DELETED'] as const;

/**
 * A media asset of a domain. Deletion is soft (`date_deleted`, `deleted_by_user`, status DELETED): a deleted
 * asset is 404 to every read and search. `search_vector` is the asset's search document (its title, and the
 * metadata values of its current version), written in the transaction of every change to either
 * (`search-document.ts`); the GIN index over it is created by the migration (TypeORM cannot declare one).
 */
@Entity('assets')
@Index('ix_assets_domain_created', ['system_domain_id', 'date_created'])
@Index('ix_assets_search', { synchronize: false })
export class AssetEntity extends DomainRow {
  @Column({ type: 'text' }) title!: string;
  @Column({ type: 'text', default: 'ASSET' }) type!: string;
  @Column({ type: 'text', default: 'ACTIVE' }) status!: string;
  @Column({ type: 'text', default: 'N/A' }) analyze_status!: string;
  @Column({ type: 'text', default: 'NOT_ARCHIVED' }) archive_status!: string;
  @Column({ type: 'text', nullable: true }) external_id!: string | null;
  @Column({ type: 'boolean', default: true }) is_online!: boolean;
  @Column({ type: 'text', nullable: true }) media_type!: string | null;
  /** The version new metadata values belong to: the latest one. */
  @Column({ type: 'uuid', nullable: true }) current_version_id!: string | null;
  @Column({ type: 'uuid', nullable: true }) created_by_user!: string | null;
  @Column({ type: 'uuid', nullable: true }) deleted_by_user!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) date_deleted!: Date | null;
  @Column({ type: 'tsvector', nullable: true, select: false }) search_vector?: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/**
 * The columns a table of an asset's parts (versions, formats, files, keyframes, proxies, ACL entries) begins
 * with: the row's id and its asset, whose foreign key (ON DELETE CASCADE) takes the row with the asset.
 */
export abstract class AssetRow {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid' }) asset_id!: string;
  @References(() => AssetEntity, 'asset_id') asset?: Relation<AssetEntity>;
}

/** One version of an asset; the first is created with the asset. */
@Entity('asset_versions')
@Index('ix_asset_versions_asset', ['asset_id', 'date_created'])
export class AssetVersionEntity extends AssetRow {
  @Column({ type: 'text', default: 'N/A' }) analyze_status!: string;
  @Column({ type: 'text', default: 'NOT_ARCHIVED' }) archive_status!: string;
  @Column({ type: 'text', default: 'ACTIVE' }) status!: string;
  @Column({ type: 'text', default: 'N/A' }) transcribe_status!: string;
  @Column({ type: 'boolean', default: true }) is_online!: boolean;
  @Column({ type: 'uuid', nullable: true }) created_by_user!: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
