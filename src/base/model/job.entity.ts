import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import { SystemDomainEntity } from './system-domain.entity.js';

export const JOB_TYPES = [
  'TRANSFER',
  'KEYFRAMES',
  'PROXY',
  'TRANSCODE',
  'ANALYZE',
  'TRANSCRIBE',
  'ARCHIVE',
  'RESTORE',
  'DELETE',
  'EXPORT',
  'IMPORT',
  'CUSTOM',
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
export class JobEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @ManyToOne(() => SystemDomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_domain_id' })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'uuid', nullable: true }) created_by_user!: string | null;
  @Column({ type: 'text', nullable: true }) object_type!: string | null;
  @Column({ type: 'uuid', nullable: true }) object_id!: string | null;
  @Column({ type: 'text' }) type!: string;
  @Column({ type: 'text', default: 'READY' }) status!: string;
  @Column({ type: 'text', default: '' }) title!: string;
  @Column({ type: 'bigint', default: 0 }) progress_processed!: string;
  @Column({ type: 'bigint', nullable: true }) progress_total!: string | null;
  @Column({ type: 'integer', default: 0 }) priority!: number;
  @Column({ type: 'text', nullable: true }) message!: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
