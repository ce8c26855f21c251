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
@Index('ix_mail_outbox_due', ['status', 'next_attempt_at'])
@Index('ix_mail_outbox_recipient', ['to_address', 'kind', 'date_created'])
export class MailOutboxEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text' }) to_address!: string;
  @Column({ type: 'text' }) subject!: string;
  /** What the mail is about ("password reset"): the per-recipient limit counts mails of one kind. */
  @Column({ type: 'text', nullable: true }) kind!: string | null;
  /** The sealed body (MailService.readBody opens it); null once the mail was delivered. */
  @Column({ type: 'text', nullable: true }) body!: string | null;
  /** The sealed HTML part, if the mail has one; null once delivered. */
  @Column({ type: 'text', nullable: true }) html_body!: string | null;
  @Column({ type: 'text', default: 'PENDING' }) status!: MailStatus;
  /** Delivery attempts so far (the delivery worker claims a row by counting one more). */
  @Column({ type: 'integer', default: 0 }) attempts!: number;
  @Column({ type: 'timestamptz', default: () => 'now()' }) next_attempt_at!: Date;
  /** Claimed by a worker until then (a lease: a crashed instance's claims expire); null when free. */
  @Column({ type: 'timestamptz', nullable: true }) locked_until!: Date | null;
  /** The last failure (an SMTP answer or a connection error), never the content. */
  @Column({ type: 'text', nullable: true }) last_error!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) sent_at!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
