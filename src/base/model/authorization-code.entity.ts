import { SystemDomainEntity } from './system-domain.entity.js';
import { Column, Entity, Index, type Relation } from 'typeorm';
import { References } from './references.js';
import { OAuthGrantColumns } from './oauth-grant-columns.js';

/** An issued authorization code: single-use, 60 seconds, bound to client, redirect URI and PKCE challenge. */
@Entity('oauth_authorization_codes')
export class AuthorizationCodeEntity extends OAuthGrantColumns {
  /** SHA-256 (hex) of the code; the code itself is only ever in the redirect. */
  @Index('uq_oauth_codes_hash', { unique: true })
  @Column({ type: 'text' })
  code_hash!: string;
  @References(() => SystemDomainEntity, 'system_domain_id', {
    foreignKey: 'FK_oauth_authorization_codes_domain',
  })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'text' }) redirect_uri!: string;
  @Column({ type: 'text' }) code_challenge!: string;
}
