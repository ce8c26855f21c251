import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { WebhookEventEntity } from './webhook-event.entity.js';
import { WebhookEntity } from './webhook.entity.js';

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * One event for one webhook: the worker's queue and the webhook's delivery log. A worker claims a due row
 * (`SELECT … FOR UPDATE SKIP LOCKED`) by setting `locked_until` (a lease: a crashed instance's claims
 * expire), posts, then records the outcome of the attempt here. The id is the `webhook-id` header, the
 * same on every retry and replay, so receivers can drop duplicates.
 */
@Entity('webhook_deliveries')
@Index('ix_webhook_deliveries_due', ['status', 'next_attempt_at'])
@Index('ix_webhook_deliveries_webhook', ['webhook_id', 'date_created'])
@Index('ix_webhook_deliveries_event', ['event_id'])
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid' }) webhook_id!: string;
  @References(() => WebhookEntity, 'webhook_id') webhook?: Relation<WebhookEntity>;
  @Column({ type: 'uuid' }) event_id!: string;
  @References(() => WebhookEventEntity, 'event_id') event?: Relation<WebhookEventEntity>;
  @Column({ type: 'text', default: 'PENDING' }) status!: DeliveryStatus;
  @Column({ type: 'integer', default: 0 }) attempts!: number;
  @Column({ type: 'timestamptz' }) next_attempt_at!: Date;
  /** Claimed by a worker until then; null when nobody holds it. */
  @Column({ type: 'timestamptz', nullable: true }) locked_until!: Date | null;
  /** When it was queued (recorded or replayed): retries stop WEBHOOK_DISABLE_AFTER_SECONDS after it. */
  @Column({ type: 'timestamptz' }) queued_at!: Date;
  @Column({ type: 'timestamptz', nullable: true }) last_attempt_at!: Date | null;
  @Column({ type: 'integer', nullable: true }) response_code!: number | null;
  @Column({ type: 'integer', nullable: true }) duration_ms!: number | null;
  @Column({ type: 'text', nullable: true }) error!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) delivered_at!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
