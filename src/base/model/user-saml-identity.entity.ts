import { SystemDomainEntity } from './system-domain.entity.js';
import { UserEntity } from './user.entity.js';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { IdentityProviderEntity } from './identity-provider.entity.js';

/**
 * A user's single-sign-on identity in one domain, set by its administrator (PUT /v1/users/{id}/saml/) or by
 * the person (PUT /v1/users/current/saml/): an assertion of `email` by that IdP names this user, whatever the
 * email's own domain; whether it may sign them in is the SignInAuthority's decision at each use. One per
 * user and domain; an identity names one user per IdP.
 */
@Entity('user_saml_identities')
@Index('uq_user_saml_identities_idp_email', ['identity_provider_id', 'email'], { unique: true })
export class UserSamlIdentityEntity {
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @PrimaryColumn({ type: 'uuid' }) system_domain_id!: string;
  @References(() => UserEntity, 'user_id', { foreignKey: 'FK_user_saml_identities_user' })
  user?: Relation<UserEntity>;
  @References(() => SystemDomainEntity, 'system_domain_id', { foreignKey: 'FK_user_saml_identities_domain' })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'uuid' }) identity_provider_id!: string;
  @References(() => IdentityProviderEntity, 'identity_provider_id', {
    foreignKey: 'FK_user_saml_identities_idp',
  })
  identity_provider?: Relation<IdentityProviderEntity>;
  /** The email the IdP asserts (NameID or email attribute), lower-cased. */
  @Column({ type: 'text' }) email!: string;
  /**
   * The person made this link from a sign-in of their own (PUT /v1/users/current/saml/), not an
   * administrator: only such a link lets the IdP sign in an account its domain does not own (SignInAuthority).
   */
  @Column({ type: 'boolean', default: false }) linked_by_self!: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
