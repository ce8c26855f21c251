import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { References } from './references.js';
import { SystemDomainEntity, type BillingTier } from './system-domain.entity.js';

/**
 * A referral code: what a new domain created with it gets (tier, PLG flag, freeze date, billing and CRM ids),
 * and which partner domain may create customer domains with it. Codes are unique case-insensitively: the
 * key is the lower-cased code (a unique index, so two concurrent creations cannot both succeed); `code`
 * keeps the spelling it was created with.
 */
@Entity('referral_codes')
export class ReferralCodeEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_referral_codes' }) id!: string;
  @Index('uq_referral_codes_code_key', { unique: true })
  @Column({ type: 'text' })
  code_key!: string;
  @Column({ type: 'text' }) code!: string;
  @Column({ type: 'timestamptz' }) valid_to!: Date;
  @Column({ type: 'double precision' }) value!: number;
  @Column({ type: 'text', nullable: true }) billing_tier!: BillingTier | null;
  @Column({ type: 'integer', nullable: true }) credit_expiry_days!: number | null;
  @Column({ type: 'boolean', default: false }) do_not_delete!: boolean;
  @Column({ type: 'timestamptz', nullable: true }) freeze_date!: Date | null;
  @Column({ type: 'boolean', nullable: true }) is_plg!: boolean | null;
  @Index('ix_referral_codes_manage_domain')
  @Column({ type: 'uuid', nullable: true })
  manage_system_domain_id!: string | null;
  @References(() => SystemDomainEntity, 'manage_system_domain_id', {
    onDelete: 'SET NULL',
    foreignKey: 'FK_referral_codes_manage_domain',
  })
  manage_system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'text', nullable: true }) billing_customer_id!: string | null;
  @Column({ type: 'text', nullable: true }) crm_id!: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
