import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { References } from './references.js';
import { UserEntity } from './user.entity.js';

/**
 * A user's second factors. The TOTP seed is sealed (KeyEncryption, its own label) and active only once
 * `totp_confirmed_at` is set; `totp_last_step` is the last accepted time step (a code is accepted once).
 * Recovery codes are kept as SHA-256 hashes and removed as they are used.
 */
@Entity('user_mfa')
export class UserMfaEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_user_mfa' }) user_id!: string;
  @References(() => UserEntity, 'user_id', { foreignKey: 'FK_user_mfa_user' })
  user?: Relation<UserEntity>;
  @Column({ type: 'text', nullable: true, select: false }) totp_secret!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) totp_confirmed_at!: Date | null;
  @Column({ type: 'bigint', nullable: true }) totp_last_step!: string | null;
  @Column({ type: 'boolean', default: false }) mail_2sv_enabled!: boolean;
  @Column({ type: 'text', array: true, default: () => "'{}'", select: false })
  recovery_code_hashes!: string[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/** A mailed one-time code (MAIL_2SV): HMAC only, ten minutes, used once. */
@Entity('mail_otp_codes')
@Index('ix_mail_otp_codes_user', ['user_id', 'code_hash'])
export class MailOtpCodeEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_mail_otp_codes' }) id!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @References(() => UserEntity, 'user_id', { foreignKey: 'FK_mail_otp_codes_user' })
  user?: Relation<UserEntity>;
  @Column({ type: 'text' }) code_hash!: string;
  @Column({ type: 'timestamptz' }) expires!: Date;
  @Column({ type: 'timestamptz', nullable: true }) used_at!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
