import { UserEntity } from './user.entity.js';
import { AppEntity } from './app.entity.js';
import { Column, CreateDateColumn, Entity, Index, UpdateDateColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { DomainRow } from './system-domain.entity.js';

/**
 * TEMP: the temporary sign-in token of a sign-in whose second factor is still owed; SCIM: a domain's
 * provisioning token (sign-in/scim/). Routes accept LOGIN, PAT and OAUTH unless they name other kinds
 * (CredentialKindStep), so each of these two opens only the routes that list it.
 */
export const TOKEN_KINDS = ['PAT', 'LOGIN', 'OAUTH', 'TEMP', 'SCIM'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/**
 * The record behind every JWT the service signs. Looked up on every request, so deleting or revoking it
 * takes effect on the next request. The JWT itself is never stored: only its SHA-256, which also defeats
 * a forged token that reuses a real id.
 */
@Entity('tokens')
@Index('ix_tokens_user', ['user_id', 'id'])
@Index('ix_tokens_app', ['app_id', 'id'])
export class TokenEntity extends DomainRow {
  @Column({ type: 'uuid' }) user_id!: string;
  @Column({ type: 'uuid' }) app_id!: string;
  @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
  @References(() => AppEntity, 'app_id') app?: Relation<AppEntity>;
  @Column({ type: 'text' }) kind!: TokenKind;
  /** OAuth tokens only: the granted scopes. */
  @Column({ type: 'text', array: true, nullable: true }) scopes!: string[] | null;
  @Column({ type: 'text', select: false }) token_hash!: string;
  @Column({ type: 'timestamptz' }) expires!: Date;
  @Column({ type: 'timestamptz', nullable: true }) revoked_at!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) last_used_at!: Date | null;
  @Column({ type: 'boolean', default: false }) is_mfa_authenticated!: boolean;
  /**
   * When the person last proved who they are (the sign-in this token comes from, kept through renewals);
   * null for tokens minted for apps. Account changes need it recent (AccountChangeStep).
   */
  @Column({ type: 'timestamptz', nullable: true }) auth_time!: Date | null;
  /**
   * A tenant's authenticator (a domain's SAML IdP), not the service, vouched for the sign-in this token comes
   * from (SignInAuthority); kept through renewals. Such a session is never second-factor authenticated, and
   * changes its account only while that tenant owns it (requireAccountChange).
   */
  @Column({ type: 'boolean', default: false }) vouched_by_tenant!: boolean;
  /**
   * How the person signed in, as OpenID Connect's `amr` (RFC 8176), where the sign-in authority said more than
   * the marks tell (a passkey: `hwk`/`swk`, `user`); kept through renewals. Null: read from the marks
   * (sign-in/login/assurance.ts).
   */
  @Column({ type: 'text', array: true, nullable: true }) amr!: string[] | null;
  /**
   * The ceiling of this token's rights (see common/auth/rights.ts); null for a user's own sign-in and for
   * authorizations the user consented to. Never widened: renewing a token copies it.
   */
  @Column({ type: 'text', array: true, nullable: true }) rights_cap!: string[] | null;
  /** OAuth tokens: the authorization they descend from, so a refresh-token replay can revoke them all. */
  @Index('ix_tokens_grant')
  @Column({ type: 'uuid', nullable: true })
  grant_id!: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
