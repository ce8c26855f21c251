import { Column, CreateDateColumn, Entity, Index, UpdateDateColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { DomainRow } from './system-domain.entity.js';
import type { JsonObject } from './file.entity.js';

/** The published job types (JobSchema.type); a CUSTOM job names its kind in custom_type. */
export const JOB_TYPES = [
  'MEDIAINFO',
  'TRANSCODE',
  'KEYFRAMES',
  'EXPORT',
  'DELETE',
  'REINDEX',
  'MOVE',
  'TRANSFER',
  'ANALYZE',
  'METADATA',
  'CUSTOM',
  'SCAN',
  'ARCHIVE',
  'RESTORE',
  'RESTORE_FROM_GLACIER',
  'ACL',
  'COPY',
  'TRANSCRIPTION',
  'REQUEST_COLLECTION_MAP',
  'COLLECTION_CUSTOM_ORDER',
  'STORAGE_GATEWAY_FILE_INGEST',
  'MARK_MISSING',
  'FACE_RECOGNITION',
  'SET_APPROVAL',
  'REQUEST_APPROVAL',
  'CHANGE_PERSON',
  'CONFIRM_PERSON',
  'DELETE_PERSON',
  'AUTOMATION',
  'REVIEW_REQUEST',
  'CONVERT_SAVED_SEARCH_TO_COLLECTION',
] as const;
export const JOB_STATUSES = [
  'READY',
  'STARTED',
  'FINISHED',
  'FINISHED_WITH_WARNING',
  'FAILED',
  'WAITING',
  'ABORT_PENDING',
  'ABORTED',
  'SKIPPED',
  'PAUSED',
] as const;
/** A job in one of these states is over: it cannot change status again. */
export const FINAL_JOB_STATUSES = ['FINISHED', 'FINISHED_WITH_WARNING', 'FAILED', 'ABORTED', 'SKIPPED'];

/** A job of a domain: a client's own record of its work (TRANSFER), or the service's (KEYFRAMES). */
@Entity('jobs')
@Index('ix_jobs_domain_created', ['system_domain_id', 'date_created'])
@Index('ix_jobs_parent', ['parent_id'])
export class JobEntity extends DomainRow {
  @Column({ type: 'uuid', nullable: true }) created_by_user!: string | null;
  @Column({ type: 'text', nullable: true }) object_type!: string | null;
  @Column({ type: 'uuid', nullable: true }) object_id!: string | null;
  @Column({ type: 'text' }) type!: string;
  /** What a CUSTOM job is (required for CUSTOM, null otherwise). */
  @Column({ type: 'text', nullable: true }) custom_type!: string | null;
  @Column({ type: 'text', default: 'READY' }) status!: string;
  @Column({ type: 'text', default: '' }) title!: string;
  @Column({ type: 'bigint', default: 0 }) progress_processed!: string;
  @Column({ type: 'bigint', nullable: true }) progress_total!: string | null;
  @Column({ type: 'integer', default: 0 }) priority!: number;
  @Column({ type: 'text', nullable: true }) message!: string | null;
  @Column({ type: 'text', nullable: true }) error_message!: string | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) metadata!: JsonObject;
  @Column({ type: 'jsonb', default: () => "'{}'" }) job_context!: JsonObject;
  @Column({ type: 'jsonb', default: () => "'{}'" }) action_context!: JsonObject;
  @Column({ type: 'jsonb', default: () => "'[]'" }) related_objects!: JsonObject[];
  /** A job of the same domain this one is part of (cleared when the parent is deleted). */
  @Column({ type: 'uuid', nullable: true }) parent_id!: string | null;
  @References(() => JobEntity, 'parent_id', { onDelete: 'SET NULL' }) parent?: Relation<JobEntity>;
  @Column({ type: 'timestamptz', nullable: true }) started_at!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) completed_at!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
