import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { References } from './references.js';
import { ExpiryColumn } from './columns.js';
import { SystemDomainEntity } from './system-domain.entity.js';
import { DirectoryEntity, LoginCodeColumns, OidcProviderEntity } from './federation.entity.js';

export const IDP_TYPES = ['VENDOR_A', 'VENDOR_B', 'VENDOR_C', 'GENERIC'] as const;
export type IdpType = (typeof IDP_TYPES)[number];

/**
 * A SAML 2.0 identity provider of one system domain. `public_id` names it in the SAML endpoints (sso, acs,
 * metadata). `settings` holds what the domain administrator entered (validated per type, idp-settings.ts);
 * the SP's own signing key, when AuthnRequests are signed, is sealed like the signing keys and never read
 * back out of the service.
 */
@Entity('identity_providers')
@Index('ix_identity_providers_domain', ['system_domain_id', 'id'])
export class IdentityProviderEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index('uq_identity_providers_public_id', { unique: true })
  @Column({ type: 'uuid' })
  public_id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id') system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'text' }) type!: IdpType;
  @Column({ type: 'jsonb' }) settings!: Record<string, unknown>;
  @Column({ type: 'boolean', default: false }) verbose_logging!: boolean;
  @Column({ type: 'boolean', default: true }) enabled!: boolean;
  /** The SP key pair for signing AuthnRequests (AES-256-GCM under the service secret), and its certificate. */
  @Column({ type: 'text', nullable: true, select: false }) sp_private_key_sealed!: string | null;
  @Column({ type: 'text', nullable: true }) sp_certificate!: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/**
 * An email domain name bound to one authenticator of a system domain (a SAML IdP, a directory or an OpenID
 * provider). A binding routes people and
 * provisions them only once verified (`verified_at`): by the DNS TXT record that carries `challenge_token`, or
 * by a super administrator's decision. Each system domain may claim a name (one binding per name and domain);
 * one binding per name across all tenants may be verified (the partial unique index), and that one routes.
 */
@Entity('identity_provider_domains')
@Index('ix_identity_provider_domains_idp', ['identity_provider_id'])
@Index('uq_identity_provider_domains_verified', ['domain'], {
  unique: true,
  where: '"verified_at" IS NOT NULL',
})
@Check(
  'ck_identity_provider_domains_one_authenticator',
  'num_nonnulls("identity_provider_id", "directory_id", "oidc_provider_id") = 1',
)
export class IdentityProviderDomainEntity {
  @PrimaryColumn({ type: 'text' }) domain!: string;
  /** The authenticator the name routes to: exactly one of a SAML IdP, a directory, an OpenID provider. */
  @Column({ type: 'uuid', nullable: true }) identity_provider_id!: string | null;
  @References(() => IdentityProviderEntity, 'identity_provider_id')
  identity_provider?: Relation<IdentityProviderEntity>;
  @Index('ix_identity_provider_domains_directory')
  @Column({ type: 'uuid', nullable: true })
  directory_id!: string | null;
  @References(() => DirectoryEntity, 'directory_id') directory?: Relation<DirectoryEntity>;
  @Index('ix_identity_provider_domains_oidc_provider')
  @Column({ type: 'uuid', nullable: true })
  oidc_provider_id!: string | null;
  @References(() => OidcProviderEntity, 'oidc_provider_id') oidc_provider?: Relation<OidcProviderEntity>;
  @PrimaryColumn({ type: 'uuid' }) system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id') system_domain?: Relation<SystemDomainEntity>;
  /** When the binding was verified; null: not yet (it routes no one, provisions no one). */
  @Column({ type: 'timestamptz', nullable: true }) verified_at!: Date | null;
  /** The random value (256 bits, base64url) the TXT record must carry; public, not a credential. */
  @Column({ type: 'text' }) challenge_token!: string;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}

/** An AuthnRequest the SP sent: its ID (the expected InResponseTo) and where the browser returns. */
@Entity('saml_requests')
export class SamlRequestEntity {
  @PrimaryColumn({ type: 'text' }) id!: string;
  @Column({ type: 'uuid' }) identity_provider_id!: string;
  @References(() => IdentityProviderEntity, 'identity_provider_id')
  identity_provider?: Relation<IdentityProviderEntity>;
  @Column({ type: 'text', nullable: true }) return_to!: string | null;
  @ExpiryColumn('ix_saml_requests_expires') expires!: Date;
}

/** Every assertion ID accepted, kept until it could no longer be valid: each is accepted once, anywhere. */
@Entity('saml_assertion_ids')
export class SamlAssertionIdEntity {
  @PrimaryColumn({ type: 'uuid' }) identity_provider_id!: string;
  @PrimaryColumn({ type: 'text' }) assertion_id!: string;
  @ExpiryColumn('ix_saml_assertion_ids_expires') expires!: Date;
}

/** The single-use code the browser carries back to the web app from a SAML sign-in. */
@Entity('saml_login_codes')
export class SamlLoginCodeEntity extends LoginCodeColumns {
  @Column({ type: 'uuid' }) identity_provider_id!: string;
  @References(() => IdentityProviderEntity, 'identity_provider_id')
  identity_provider?: Relation<IdentityProviderEntity>;
  @ExpiryColumn('ix_saml_login_codes_expires') expires!: Date;
}
