import { Column, CreateDateColumn, Entity, Index } from 'typeorm';
import { DomainRow } from './system-domain.entity.js';

/**
 * The transactional outbox: one row per change that some webhook listens to, written in the change's own
 * transaction (WebhookEventsService.record), so a rolled-back change emits nothing and a committed one is
 * delivered even if the process dies right after the commit. Only changes some webhook listens to are
 * written; rows go with their deliveries once those are finished and past the retention (the worker).
 */
@Entity('webhook_events')
@Index('ix_webhook_events_created', ['date_created'])
export class WebhookEventEntity extends DomainRow {
  @Column({ type: 'uuid', nullable: true }) object_id!: string | null;
  @Column({ type: 'text', nullable: true }) realm!: string | null;
  @Column({ type: 'text' }) operation!: string;
  @Column({ type: 'text' }) event_type!: string;
  @Column({ type: 'text', nullable: true }) request_id!: string | null;
  @Column({ type: 'jsonb' }) data!: Record<string, unknown>;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
