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
import type { JsonObject } from './file.entity.js';
import { SystemDomainEntity } from './system-domain.entity.js';

export const STORAGE_METHODS = [
  'FILE',
  'HTTP',
  'FTP',
  'SFTP',
  'S3',
  'B2',
  'GCS',
  'PORTAL',
  'CUSTOM',
  'AZURE',
] as const;
/** The methods this service can move bytes with; the others may be recorded but hold no uploads. */
export const SERVED_METHODS = ['FILE', 'S3'] as const;
export const STORAGE_PURPOSES = ['KEYFRAMES', 'FILES', 'PROXIES', 'EXPORTS', 'ARCHIVE', 'FACES'] as const;
export const STORAGE_STATUSES = ['ACTIVE', 'INACTIVE', 'FAILING'] as const;

/**
 * Where bytes live. Built-in storages (system_domain_id null, created at first start from FILES_STORAGE:
 * FILES, PROXIES, KEYFRAMES) serve every domain; a domain's administrators may add their own. Settings never
 * hold a secret: an S3 storage's credentials come from the environment (README, files-and-upload.md), and a
 * FILE storage's directory is chosen by the service (STORAGE_DIR/<id>), never by a client.
 */
@Entity('storages')
@Index('uq_storages_builtin_default', ['purpose'], {
  unique: true,
  where: 'system_domain_id IS NULL AND is_default',
})
@Index('ix_storages_domain', ['system_domain_id'])
export class StorageEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid', nullable: true }) system_domain_id!: string | null;
  @References(() => SystemDomainEntity, 'system_domain_id') system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) method!: string;
  @Column({ type: 'text' }) purpose!: string;
  @Column({ type: 'text', default: 'ACTIVE' }) status!: string;
  @Column({ type: 'text', default: 'INACTIVE' }) scanner_status!: string;
  @Column({ type: 'text', nullable: true }) status_message!: string | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) settings!: JsonObject;
  @Column({ type: 'boolean', default: false }) is_default!: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
