import { SystemDomainEntity } from './system-domain.entity.js';
import { Column, Entity, Index, type Relation } from 'typeorm';
import { References } from './references.js';
import { OAuthGrantColumns } from './oauth-grant-columns.js';

/**
 * A refresh token: single-use, rotated on every use. `used_at` is claimed with one compare-and-set UPDATE, so
 * of many concurrent presentations exactly one wins; a presentation after use revokes the whole grant.
 */
@Entity('oauth_refresh_tokens')
@Index('ix_oauth_refresh_grant', ['grant_id'])
export class RefreshTokenEntity extends OAuthGrantColumns {
  @Index('uq_oauth_refresh_hash', { unique: true })
  @Column({ type: 'text' })
  token_hash!: string;
  @References(() => SystemDomainEntity, 'system_domain_id', { foreignKey: 'FK_oauth_refresh_tokens_domain' })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'timestamptz', nullable: true }) revoked_at!: Date | null;
  /** The access token issued together with this refresh token. */
  @Column({ type: 'uuid', nullable: true }) access_token_id!: string | null;
}
