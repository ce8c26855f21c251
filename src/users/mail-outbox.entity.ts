import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const MAIL_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * Outgoing mail, written in the same transaction as the change that causes it and delivered later by a
 * worker (none yet: without SMTP_URL the outbox is where mail ends up). Bodies may carry one-time links,
 * so rows are delivery data, never log material.
 */
@Entity('mail_outbox')
@Index('ix_mail_outbox_status', ['status', 'date_created'])
export class MailOutboxEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text' }) to_address!: string;
  @Column({ type: 'text' }) subject!: string;
  @Column({ type: 'text' }) body!: string;
  @Column({ type: 'text', default: 'PENDING' }) status!: MailStatus;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
