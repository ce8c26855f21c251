import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { AssetRow } from './asset.entity.js';

/** What a jsonb column of this module holds. */
export type JsonObject = { [key: string]: string | number | boolean | null | object };

export const FILE_TYPES = ['FILE', 'DIRECTORY', 'SYMLINK'] as const;
export const FILE_STATUSES = [
  'OPEN',
  'GROWING',
  'AWAITED',
  'CLOSED',
  'FAILED',
  'ARCHIVED',
  'MISSING',
  'REDISCOVERED',
  'DELETED',
] as const;

/** A format of an asset (original, proxy, …): the files of one rendition. */
@Entity('formats')
@Index('ix_formats_asset', ['asset_id'])
export class FormatEntity extends AssetRow {
  @Column({ type: 'uuid', nullable: true }) version_id!: string | null;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'uuid', nullable: true }) user_id!: string | null;
  @Column({ type: 'jsonb', default: () => "'[]'" }) metadata!: JsonObject[];
  @Column({ type: 'text', array: true, default: () => "'{}'" }) storage_methods!: string[];
  @Column({ type: 'text', default: 'ACTIVE' }) status!: string;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/** A set of files of one format in one storage (a base directory). */
@Entity('file_sets')
@Index('ix_file_sets_asset', ['asset_id'])
export class FileSetEntity extends AssetRow {
  @Column({ type: 'uuid', nullable: true }) version_id!: string | null;
  @Column({ type: 'uuid', nullable: true }) format_id!: string | null;
  @Column({ type: 'uuid', nullable: true }) storage_id!: string | null;
  @Column({ type: 'text', default: '' }) base_dir!: string;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) component_ids!: string[];
  @Column({ type: 'text', default: 'ACTIVE' }) status!: string;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/**
 * A file of an asset and the state of its resumable upload. The bytes live in `storage_id` under `object_key`
 * (made by the service from the file's id, never from a client's name). `received` counts the bytes stored
 * so far; `upload_lock_until` is the lease of the chunk being written (one at a time). S3 uploads keep their
 * multipart upload id and parts here.
 */
@Entity('files')
@Index('ix_files_asset', ['asset_id'])
export class FileEntity extends AssetRow {
  @Column({ type: 'uuid', nullable: true }) version_id!: string | null;
  @Column({ type: 'uuid', nullable: true }) format_id!: string | null;
  @Column({ type: 'uuid', nullable: true }) file_set_id!: string | null;
  @Column({ type: 'uuid' }) storage_id!: string;
  @Column({ type: 'text' }) object_key!: string;
  @Column({ type: 'text' }) original_name!: string;
  @Column({ type: 'text', default: '' }) directory_path!: string;
  @Column({ type: 'text', default: 'FILE' }) type!: string;
  @Column({ type: 'text', default: 'OPEN' }) status!: string;
  @Column({ type: 'bigint', nullable: true }) size!: string | null;
  @Column({ type: 'bigint', default: 0 }) received!: string;
  @Column({ type: 'integer', default: 0 }) progress_processed!: number;
  @Column({ type: 'text', nullable: true }) checksum!: string | null;
  @Column({ type: 'text', nullable: true }) content_type!: string | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) metadata!: JsonObject;
  @Column({ type: 'timestamptz', nullable: true }) upload_lock_until!: Date | null;
  @Column({ type: 'text', nullable: true }) multipart_upload_id!: string | null;
  @Column({ type: 'jsonb', default: () => "'[]'" }) multipart_parts!: {
    n: number;
    etag: string;
    size: number;
  }[];
  @Column({ type: 'uuid', nullable: true }) created_by_user!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) file_date_created!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) file_date_modified!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) date_deleted!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/** KeyframeSchema's `type`: extracted images are KEYFRAME. */
export const KEYFRAME_TYPES = ['KEYFRAME', 'POSTER', 'KEYFRAME_MAP'] as const;

/** One image extracted from a file by a keyframes job, kept in a KEYFRAMES storage. */
@Entity('keyframes')
@Index('ix_keyframes_asset', ['asset_id', 'position'])
export class KeyframeEntity extends AssetRow {
  @Column({ type: 'uuid' }) file_id!: string;
  @Column({ type: 'uuid' }) job_id!: string;
  @Column({ type: 'uuid' }) storage_id!: string;
  @Column({ type: 'text' }) object_key!: string;
  @Column({ type: 'integer' }) position!: number;
  @Column({ type: 'bigint' }) size!: string;
  /** The image's pixels, read from its JPEG header when it was stored (null for rows from before). */
  @Column({ type: 'integer', nullable: true }) width!: number | null;
  @Column({ type: 'integer', nullable: true }) height!: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}

export const FILE_TASK_KINDS = ['KEYFRAMES', 'DELETE_BYTES'] as const;

/**
 * The files worker's queue (leaseClaimSql): a keyframes extraction, or the removal of one object from a
 * storage. DONE and FAILED rows are never claimed again, so nothing is done twice across instances.
 */
@Entity('file_tasks')
@Index('ix_file_tasks_due', ['status', 'next_attempt_at'])
export class FileTaskEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text' }) kind!: string;
  @Column({ type: 'uuid', nullable: true }) file_id!: string | null;
  @Column({ type: 'uuid', nullable: true }) job_id!: string | null;
  @Column({ type: 'uuid' }) storage_id!: string;
  @Column({ type: 'text' }) object_key!: string;
  /** DELETE_BYTES of an unfinished S3 upload: the multipart upload to abort. */
  @Column({ type: 'text', nullable: true }) multipart_upload_id!: string | null;
  @Column({ type: 'text', default: 'PENDING' }) status!: string;
  @Column({ type: 'integer', default: 0 }) attempts!: number;
  @Column({ type: 'timestamptz', default: () => 'now()' }) next_attempt_at!: Date;
  @Column({ type: 'timestamptz', nullable: true }) locked_until!: Date | null;
  @Column({ type: 'text', nullable: true }) last_error!: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
