import { Column, CreateDateColumn, Entity, Index, UpdateDateColumn } from 'typeorm';
import { DomainRow } from './system-domain.entity.js';

export const WEBHOOK_STATUSES = ['ENABLED', 'DISABLED', 'FAILING', 'DELETED'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];
/** The states that receive deliveries. */
export const ACTIVE_STATUSES: readonly WebhookStatus[] = ['ENABLED', 'FAILING'];

/**
 * A domain's subscription to one event type (optionally narrowed to a realm, an operation, one object).
 * The signing secret and the extra headers (which may carry the receiver's credentials) are sealed at rest
 * (AES-256-GCM, a key of their own derived from the service secret); the worker opens them to deliver.
 * DELETE is soft: the row stays (status DELETED, deleted_at) for the deliveries that name it.
 */
@Entity('webhooks')
@Index('ix_webhooks_match', ['system_domain_id', 'event_type'])
export class WebhookEntity extends DomainRow {
  @Column({ type: 'text' }) url!: string;
  @Column({ type: 'text' }) event_type!: string;
  @Column({ type: 'text', nullable: true }) operation!: string | null;
  @Column({ type: 'text', nullable: true }) realm!: string | null;
  @Column({ type: 'uuid', nullable: true }) object_id!: string | null;
  @Column({ type: 'text', default: 'ENABLED' }) status!: WebhookStatus;
  @Column({ type: 'text', nullable: true }) name!: string | null;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  /** Kept for clients that send it (an object or a string); not used to filter events. */
  @Column({ type: 'jsonb', nullable: true }) query!: object | string | null;
  /** Sealed JSON object of extra request headers; null when there are none. */
  @Column({ type: 'text', nullable: true }) headers_sealed!: string | null;
  /** Sealed `whsec_…` signing secret. */
  @Column({ type: 'text' }) secret_sealed!: string;
  @Column({ type: 'text', nullable: true }) last_error!: string | null;
  @Column({ type: 'jsonb', nullable: true }) last_payload!: object | null;
  /** Start of the current run of failures; null after a success. */
  @Column({ type: 'timestamptz', nullable: true }) first_failed_at!: Date | null;
  @Column({ type: 'integer', default: 0 }) consecutive_failures!: number;
  @Column({ type: 'timestamptz', nullable: true }) deleted_at!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
