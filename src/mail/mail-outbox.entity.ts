import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const MAIL_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/**
 * Outgoing mail, written in the same transaction as the change that causes it and delivered later by a
 * worker. Bodies carry one-time links, so they are sealed at rest (AES-256-GCM, see MailService) and erased
 * once delivered; rows are delivery data, never log material.
 */
@Entity('mail_outbox')
@Index('ix_mail_outbox_status', ['status', 'date_created'])
export class MailOutboxEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text' }) to_address!: string;
  @Column({ type: 'text' }) subject!: string;
  /** The sealed body (MailService.readBody opens it); null once the mail was delivered. */
  @Column({ type: 'text', nullable: true }) body!: string | null;
  @Column({ type: 'text', default: 'PENDING' }) status!: MailStatus;
  @Column({ type: 'timestamptz', nullable: true }) sent_at!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
