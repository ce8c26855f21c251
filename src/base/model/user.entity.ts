import { SystemDomainEntity } from './system-domain.entity.js';
import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import { References } from './references.js';

export const USER_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
/** The published platform's user types (what clients of this API family require on every user object). */
export const USER_TYPES = ['BROWSE_API_ONLY', 'BROWSE_ONLY', 'POWER', 'STANDARD'] as const;
export type UserType = (typeof USER_TYPES)[number];

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  /** Stored lower-cased; one identity across every domain the user belongs to. */
  @Index('uq_users_email', { unique: true })
  @Column({ type: 'text' })
  email!: string;
  @Column({ type: 'text', nullable: true }) first_name!: string | null;
  @Column({ type: 'text', nullable: true }) last_name!: string | null;
  /** argon2id; null for users who have not set a password yet (invited, SSO only). */
  @Column({ type: 'text', nullable: true, select: false }) password_hash!: string | null;
  @Column({ type: 'text', default: 'ACTIVE' }) status!: UserStatus;
  /** Set by administrators; what the domain's billing limits count (standard, power, browse users). */
  @Column({ type: 'text', default: 'STANDARD' }) type!: UserType;
  @Column({ type: 'boolean', default: false }) is_super_admin!: boolean;
  /** The domain the user signs into by default; also one of their memberships. */
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id', { onDelete: 'RESTRICT' })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'timestamptz', nullable: true }) last_login!: Date | null;
  /**
   * When the person last proved they receive mail at `email` (a mailed link or code used: an invitation, a
   * registration, a password reset, an email-link sign-in, a mailed second factor); null: never shown. An
   * email change clears it. OpenID Connect reports it as `email_verified`.
   */
  @Column({ type: 'timestamptz', nullable: true }) email_verified_at!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
