import {
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
import { DomainRow, SystemDomainEntity } from './system-domain.entity.js';

export const DIRECTORY_TYPES = ['LDAP', 'ACTIVE_DIRECTORY'] as const;
export type DirectoryType = (typeof DIRECTORY_TYPES)[number];

/**
 * A company directory (LDAP or Active Directory) one system domain signs its people in against
 * (docs/federated-login.md). `settings` holds what the domain administrator entered (directory-settings.ts);
 * the service account's password is sealed like the other secrets and never read back out of the service.
 */
@Entity('directories')
@Index('ix_directories_domain', ['system_domain_id', 'id'])
export class DirectoryEntity extends DomainRow {
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) type!: DirectoryType;
  @Column({ type: 'jsonb' }) settings!: Record<string, unknown>;
  /** The service account's password (AES-256-GCM under the service secret), or null (anonymous search). */
  @Column({ type: 'text', nullable: true, select: false }) bind_password_sealed!: string | null;
  @Column({ type: 'boolean', default: true }) enabled!: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/**
 * A company's OpenID Connect provider (Entra ID, Google Workspace, Okta, Keycloak…) one system domain signs its
 * people in with; this service is its relying party. `public_id` names it in the callback URL. The client
 * secret is sealed and never read back out of the service.
 */
@Entity('oidc_providers')
@Index('ix_oidc_providers_domain', ['system_domain_id', 'id'])
export class OidcProviderEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index('uq_oidc_providers_public_id', { unique: true })
  @Column({ type: 'uuid' })
  public_id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id') system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) issuer!: string;
  @Column({ type: 'text' }) client_id!: string;
  @Column({ type: 'text', select: false }) client_secret_sealed!: string;
  @Column({ type: 'text', array: true }) scopes!: string[];
  /** The claim mapping and just-in-time provisioning (oidc-provider-settings.ts). */
  @Column({ type: 'jsonb' }) settings!: Record<string, unknown>;
  @Column({ type: 'boolean', default: true }) enabled!: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/**
 * A sign-in sent to an OpenID provider and not yet back: its `state` (only the SHA-256 is stored), the PKCE
 * verifier (sealed), the nonce the id_token must carry, and where the browser returns. Taken once.
 */
@Entity('oidc_login_states')
export class OidcLoginStateEntity {
  @PrimaryColumn({ type: 'text' }) state_sha256!: string;
  @Column({ type: 'uuid' }) oidc_provider_id!: string;
  @References(() => OidcProviderEntity, 'oidc_provider_id') oidc_provider?: Relation<OidcProviderEntity>;
  @Column({ type: 'text' }) code_verifier_sealed!: string;
  @Column({ type: 'text' }) nonce!: string;
  @Column({ type: 'text', nullable: true }) return_to!: string | null;
  @ExpiryColumn('ix_oidc_login_states_expires') expires!: Date;
}

/**
 * The single-use code the browser carries back to the web app from a tenant's sign-in (SAML, OpenID Connect):
 * only its SHA-256 is stored, with the person and the domain it signs in to. Each table adds the authenticator
 * that vouched, and its `expires`.
 */
export abstract class LoginCodeColumns {
  @PrimaryColumn({ type: 'text' }) code_sha256!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id') system_domain?: Relation<SystemDomainEntity>;
}

/** The single-use code the browser carries back from an OpenID provider's sign-in. */
@Entity('oidc_login_codes')
export class OidcLoginCodeEntity extends LoginCodeColumns {
  @Column({ type: 'uuid' }) oidc_provider_id!: string;
  @References(() => OidcProviderEntity, 'oidc_provider_id') oidc_provider?: Relation<OidcProviderEntity>;
  @ExpiryColumn('ix_oidc_login_codes_expires') expires!: Date;
}
