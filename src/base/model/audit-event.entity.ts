import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The audit trail: one row per security-relevant event, written in the change's own transaction
 * (AuditService.record). No foreign keys: a record outlives the user, app or domain it names. Rows are never
 * updated; the API only lists them, and the retention worker deletes those older than AUDIT_RETENTION_DAYS.
 */
@Entity('audit_events')
@Index('ix_audit_events_domain_created', ['system_domain_id', 'date_created'])
@Index('ix_audit_events_created', ['date_created'])
export class AuditEventEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  /** The domain the event belongs to; null when none is known (a sign-in refused for an unknown email). */
  @Column({ type: 'uuid', nullable: true }) system_domain_id!: string | null;
  @Column({ type: 'uuid', nullable: true }) actor_user_id!: string | null;
  @Column({ type: 'uuid', nullable: true }) actor_app_id!: string | null;
  /** The kind of credential the actor used (LOGIN, PAT, OAUTH, TEMP), `password`, `admin_cli`, or null. */
  @Column({ type: 'text', nullable: true }) actor_kind!: string | null;
  @Column({ type: 'text' }) action!: string;
  @Column({ type: 'text', nullable: true }) target_type!: string | null;
  @Column({ type: 'text', nullable: true }) target_id!: string | null;
  /** `success` or `failure`. */
  @Column({ type: 'text' }) outcome!: string;
  @Column({ type: 'text', nullable: true }) request_id!: string | null;
  @Column({ type: 'text', nullable: true }) client_address!: string | null;
  /** Non-secret facts (changed field names, a reason): never passwords, tokens, secrets or codes. */
  @Column({ type: 'jsonb' }) details!: Record<string, unknown>;
}
