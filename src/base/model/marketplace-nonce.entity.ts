import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { SystemDomainEntity } from './system-domain.entity.js';

/**
 * A verified marketplace token turned into a single-use signup nonce. `jti` is unique per cloud, so a
 * marketplace token is accepted once; the nonce (256 random bits) is stored only as its SHA-256, works
 * once (`used_at`, set atomically by the consumer) and until `expires`. `system_domain_id` names the
 * domain that consumed it: the domain's marketplace cloud is read from here.
 */
@Entity('marketplace_nonces')
@Index('uq_marketplace_nonces_jti', ['cloud', 'jti'], { unique: true })
export class MarketplaceNonceEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'text' }) cloud!: string;
  @Column({ type: 'text' }) jti!: string;
  @Index('uq_marketplace_nonces_secret', { unique: true })
  @Column({ type: 'text', select: false })
  nonce_sha256!: string;
  @Column({ type: 'text' }) customer_id!: string;
  @Column({ type: 'text' }) entitlement_id!: string;
  /** When the marketplace token itself expires: the jti row is kept at least that long (replay window). */
  @Column({ type: 'timestamptz' }) token_expires!: Date;
  @Column({ type: 'timestamptz' }) expires!: Date;
  @Column({ type: 'timestamptz', nullable: true }) used_at!: Date | null;
  @Index('ix_marketplace_nonces_domain')
  @Column({ type: 'uuid', nullable: true })
  system_domain_id!: string | null;
  @References(() => SystemDomainEntity, 'system_domain_id', { onDelete: 'SET NULL' })
  system_domain?: Relation<SystemDomainEntity> | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
