import { SystemDomainEntity } from '../system-domains/system-domain.entity.js';
import { UserEntity } from '../users/user.entity.js';
import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { IdentityProviderEntity } from './identity-provider.entity.js';

/**
 * A user's single-sign-on identity in one domain, set by its administrator (PUT /v1/users/{id}/saml/): an
 * assertion of `email` by that IdP signs this user in to the domain, whatever the email's own domain. One per
 * user and domain; an identity names one user per IdP.
 */
@Entity('user_saml_identities')
@Index('uq_user_saml_identities_idp_email', ['identity_provider_id', 'email'], { unique: true })
export class UserSamlIdentityEntity {
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @PrimaryColumn({ type: 'uuid' }) system_domain_id!: string;
  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_user_saml_identities_user' })
  user?: Relation<UserEntity>;
  @ManyToOne(() => SystemDomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_domain_id', foreignKeyConstraintName: 'FK_user_saml_identities_domain' })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'uuid' }) identity_provider_id!: string;
  @ManyToOne(() => IdentityProviderEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'identity_provider_id', foreignKeyConstraintName: 'FK_user_saml_identities_idp' })
  identity_provider?: Relation<IdentityProviderEntity>;
  /** The email the IdP asserts (NameID or email attribute), lower-cased. */
  @Column({ type: 'text' }) email!: string;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
