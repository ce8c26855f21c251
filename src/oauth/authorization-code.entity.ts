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

/** An issued authorization code: single-use, 60 seconds, bound to client, redirect URI and PKCE challenge. */
@Entity('oauth_authorization_codes')
export class AuthorizationCodeEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  /** SHA-256 (hex) of the code; the code itself is only ever in the redirect. */
  @Index('uq_oauth_codes_hash', { unique: true })
  @Column({ type: 'text' })
  code_hash!: string;
  @Column({ type: 'uuid' }) app_id!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @ManyToOne(() => SystemDomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_domain_id', foreignKeyConstraintName: 'FK_oauth_authorization_codes_domain' })
  system_domain?: Relation<SystemDomainEntity>;
  @ManyToOne(() => AppEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id' })
  app?: Relation<AppEntity>;
  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<UserEntity>;
  @Column({ type: 'text' }) redirect_uri!: string;
  @Column({ type: 'text', array: true }) scopes!: string[];
  @Column({ type: 'text' }) code_challenge!: string;
  @Column({ type: 'timestamptz' }) expires!: Date;
  @Column({ type: 'timestamptz', nullable: true }) used_at!: Date | null;
  /** The authorization this code starts: every refresh and access token descended from it carries it. */
  @Column({ type: 'uuid' }) grant_id!: string;
  /** The approving sign-in passed a second factor: every token of the authorization says so. */
  @Column({ type: 'boolean', default: false }) is_mfa_authenticated!: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
