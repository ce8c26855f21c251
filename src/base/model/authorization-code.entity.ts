import { SystemDomainEntity } from './system-domain.entity.js';
import { Column, Entity, Index, JoinColumn, ManyToOne, type Relation } from 'typeorm';
import { OAuthGrantColumns } from './oauth-grant-columns.js';

/** An issued authorization code: single-use, 60 seconds, bound to client, redirect URI and PKCE challenge. */
@Entity('oauth_authorization_codes')
export class AuthorizationCodeEntity extends OAuthGrantColumns {
  /** SHA-256 (hex) of the code; the code itself is only ever in the redirect. */
  @Index('uq_oauth_codes_hash', { unique: true })
  @Column({ type: 'text' })
  code_hash!: string;
  @ManyToOne(() => SystemDomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_domain_id', foreignKeyConstraintName: 'FK_oauth_authorization_codes_domain' })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'text' }) redirect_uri!: string;
  @Column({ type: 'text' }) code_challenge!: string;
}
