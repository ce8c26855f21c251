import { SystemDomainEntity } from '../system-domains/system-domain.entity.js';
import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { AppEntity } from '../apps/app.entity.js';
import { UserEntity } from '../users/user.entity.js';

/**
 * A refresh token: single-use, rotated on every use. `used_at` is claimed with one compare-and-set UPDATE, so
 * of many concurrent presentations exactly one wins; a presentation after use revokes the whole grant.
 */
@Entity('oauth_refresh_tokens')
@Index('ix_oauth_refresh_grant', ['grant_id'])
export class RefreshTokenEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index('uq_oauth_refresh_hash', { unique: true })
  @Column({ type: 'text' })
  token_hash!: string;
  @Column({ type: 'uuid' }) grant_id!: string;
  @Column({ type: 'uuid' }) app_id!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @ManyToOne(() => SystemDomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_domain_id', foreignKeyConstraintName: 'FK_oauth_refresh_tokens_domain' })
  system_domain?: Relation<SystemDomainEntity>;
  @ManyToOne(() => AppEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id' })
  app?: Relation<AppEntity>;
  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<UserEntity>;
  @Column({ type: 'text', array: true }) scopes!: string[];
  @Column({ type: 'timestamptz' }) expires!: Date;
  @Column({ type: 'timestamptz', nullable: true }) used_at!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) revoked_at!: Date | null;
  /** The access token issued together with this refresh token. */
  @Column({ type: 'uuid', nullable: true }) access_token_id!: string | null;
  /** Carried from the authorization code through every rotation (see AuthorizationCodeEntity). */
  @Column({ type: 'boolean', default: false }) is_mfa_authenticated!: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
