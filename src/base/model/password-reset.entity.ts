import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { UserEntity } from './user.entity.js';

/**
 * A mailed password-reset link. The link carries a 256-bit secret; only its SHA-256 is stored. It works
 * once (`used_at`), until `expires`, and only while it is the user's newest (`superseded_at` is set when a
 * newer one is mailed). Rows of a user whose links all ended a day ago are deleted at their next request.
 */
@Entity('password_resets')
export class PasswordResetEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index('ix_password_resets_user')
  @Column({ type: 'uuid' })
  user_id!: string;
  @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
  @Index('uq_password_resets_secret', { unique: true })
  @Column({ type: 'text', select: false })
  secret_sha256!: string;
  @Column({ type: 'timestamptz' }) expires!: Date;
  @Column({ type: 'timestamptz', nullable: true }) used_at!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) superseded_at!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
