import { UserEntity } from './user.entity.js';
import { Check, Column, CreateDateColumn, Entity, Index, UpdateDateColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { DomainRow } from './system-domain.entity.js';

export const APP_TYPES = ['PAT', 'OAUTH'] as const;
export type AppType = (typeof APP_TYPES)[number];
export const OAUTH_CLIENT_TYPES = ['confidential', 'public'] as const;
export type OAuthClientType = (typeof OAUTH_CLIENT_TYPES)[number];

/** An app of a domain; its id is also the OAuth client_id. */
@Entity('apps')
@Check('chk_apps_acting_rights_cap', '"default_user_id" IS NULL OR "acting_rights_cap" IS NOT NULL')
@Index('ix_apps_domain', ['system_domain_id', 'id'])
export class AppEntity extends DomainRow {
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'text', nullable: true }) url!: string | null;
  @Column({ type: 'uuid', nullable: true }) default_user_id!: string | null;
  /**
   * The ceiling of every token minted for this app (see common/auth/rights.ts): the acting user's rights
   * when an administrator who holds them all set that user. A later promotion of the acting user does not
   * reach the app's tokens until an administrator sets the acting user again.
   */
  @Column({ type: 'text', array: true, nullable: true }) acting_rights_cap!: string[] | null;
  @References(() => UserEntity, 'default_user_id', { onDelete: 'SET NULL', nullable: true })
  default_user?: Relation<UserEntity>;
  @Column({ type: 'text' }) type!: AppType;
  @Column({ type: 'text', nullable: true }) oauth_client_type!: OAuthClientType | null;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) allowed_scopes!: string[];
  @Column({ type: 'text', array: true, default: () => "'{}'" }) redirect_uris!: string[];
  @Column({ type: 'text', array: true, default: () => "'{}'" }) allowed_origins!: string[];
  /** OpenID Connect RP-initiated logout: where the end-session endpoint may send the browser (exact match). */
  @Column({ type: 'text', array: true, default: () => "'{}'" }) post_logout_redirect_uris!: string[];
  /** SHA-256 (hex) of the generated client secret; the secret itself is shown once. */
  @Column({ type: 'text', nullable: true, select: false }) client_secret_hash!: string | null;
  /** The domain's built-in login app that password sign-ins are issued under; hidden and immutable. */
  @Column({ type: 'boolean', default: false }) is_builtin!: boolean;
  @Column({ type: 'uuid', nullable: true }) created_by_user_id!: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
