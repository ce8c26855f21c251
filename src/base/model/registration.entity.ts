import { SystemDomainEntity } from './system-domain.entity.js';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { References } from './references.js';

/**
 * A self-service registration waiting for its email to be verified. Nothing else exists until then: no
 * account, no domain. The password is kept as argon2id, the mailed link's 256-bit secret as SHA-256 only.
 * At most one registration per email is pending: a newer one supersedes it (its link stops working).
 */
@Entity('registrations')
@Index('uq_registrations_pending', ['email'], {
  unique: true,
  where: '"verified_at" IS NULL AND "superseded_at" IS NULL',
})
export class RegistrationEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_registrations' }) id!: string;
  /** Lower-cased, as accounts store it. */
  @Column({ type: 'text' }) email!: string;
  @Column({ type: 'text' }) first_name!: string;
  @Column({ type: 'text' }) last_name!: string;
  @Column({ type: 'text', nullable: true }) company_name!: string | null;
  /** ISO 3166-1 alpha-2. */
  @Column({ type: 'text' }) country!: string;
  @Column({ type: 'boolean', nullable: true }) email_marketing_consent!: boolean | null;
  /** The referral code as it was valid at registration (checked again at verification). */
  @Column({ type: 'text', nullable: true }) referral_code!: string | null;
  @Column({ type: 'text', nullable: true }) billing_customer_id!: string | null;
  @Column({ type: 'text', nullable: true }) billing_subscription_id!: string | null;
  @Column({ type: 'text', nullable: true }) payments_id!: string | null;
  /** SHA-256 of the marketplace signup nonce given at registration, consumed at verification. */
  @Column({ type: 'text', nullable: true }) marketplace_nonce_sha256!: string | null;
  @Column({ type: 'text', select: false }) password_hash!: string;
  @Index('uq_registrations_secret', { unique: true })
  @Column({ type: 'text', select: false })
  secret_sha256!: string;
  @Column({ type: 'timestamptz' }) expires!: Date;
  @Column({ type: 'timestamptz', nullable: true }) verified_at!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) superseded_at!: Date | null;
  /** What the verification created (kept for support; the user id has no foreign key, the row goes with the domain). */
  @Column({ type: 'uuid', nullable: true }) user_id!: string | null;
  @Column({ type: 'uuid', nullable: true }) system_domain_id!: string | null;
  @References(() => SystemDomainEntity, 'system_domain_id', { foreignKey: 'FK_registrations_domain' })
  system_domain?: Relation<SystemDomainEntity> | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
