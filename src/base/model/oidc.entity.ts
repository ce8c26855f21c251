import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { References } from './references.js';
import { AppEntity } from './app.entity.js';
import { UserEntity } from './user.entity.js';

/**
 * What an OpenID Connect authorization (one `grant_id`: its code, refresh tokens and access tokens) says of
 * the sign-in behind it, fixed when the person approved: the consent-page session it came from (for
 * RP-initiated logout), the `sid` its id_tokens carry, the `nonce` of the request, when and how the person
 * signed in (`auth_time`, `acr`, `amr`: SignInAuthority's assurance). Refreshes keep them.
 */
@Entity('oidc_grants')
@Index('ix_oidc_grants_sid', ['sid'])
export class OidcGrantEntity {
  @PrimaryColumn({ type: 'uuid' }) grant_id!: string;
  @Column({ type: 'uuid' }) app_id!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @References(() => AppEntity, 'app_id') app?: Relation<AppEntity>;
  @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
  /** The consent-page session's token record (a LOGIN token), ended by RP-initiated logout. */
  @Column({ type: 'uuid' }) session_id!: string;
  /** The session's opaque id in id_tokens (an HMAC of session_id: the record's id never leaves). */
  @Column({ type: 'text' }) sid!: string;
  @Column({ type: 'text', nullable: true }) nonce!: string | null;
  @Column({ type: 'timestamptz' }) auth_time!: Date;
  @Column({ type: 'text' }) acr!: string;
  @Column({ type: 'text', array: true }) amr!: string[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}

/**
 * A person's remembered consent to an app: the scopes they allowed it (the union of their decisions). An
 * OpenID Connect request for the same or fewer scopes skips the consent screen unless `prompt=consent`.
 */
@Entity('oauth_consents')
export class OAuthConsentEntity {
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @PrimaryColumn({ type: 'uuid' }) app_id!: string;
  @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
  @References(() => AppEntity, 'app_id') app?: Relation<AppEntity>;
  @Column({ type: 'text', array: true }) scopes!: string[];
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
