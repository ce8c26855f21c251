import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { UserEntity } from './user.entity.js';

/**
 * A single-use sign-in link mailed by email login: only the SHA-256 of its 256-bit secret is kept. A new
 * request replaces the user's unused links; a used link stays (used_at) so that a second use answers 419.
 */
@Entity('email_login_links')
export class EmailLoginLinkEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index('ix_email_login_links_user')
  @Column({ type: 'uuid' })
  user_id!: string;
  @References(() => UserEntity, 'user_id', { foreignKey: 'FK_email_login_links_user' })
  user?: Relation<UserEntity>;
  @Index('uq_email_login_links_secret', { unique: true })
  @Column({ type: 'text' })
  secret_sha256!: string;
  @Column({ type: 'timestamptz' }) expires!: Date;
  @Column({ type: 'timestamptz', nullable: true }) used_at!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
