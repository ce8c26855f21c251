import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  type Relation,
} from 'typeorm';
import { References } from './references.js';
import { ExpiryColumn } from './columns.js';
import { UserEntity } from './user.entity.js';

/**
 * A passkey (a WebAuthn public-key credential) registered to one account (src/sign-in/passkeys/). The service
 * keeps only what verifies its assertions: the credential's id (base64url, as the browser names it), its COSE
 * public key, and the signature counter last seen. `flagged_at`: a valid assertion came with a counter that
 * went backwards (a cloned authenticator); the passkey is refused from then on, and stays listed for its
 * person or an administrator to remove.
 */
@Entity('passkeys')
@Index('ix_passkeys_user', ['user_id', 'date_created'])
export class PasskeyEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_passkeys' }) id!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @References(() => UserEntity, 'user_id', { foreignKey: 'FK_passkeys_user' })
  user?: Relation<UserEntity>;
  @Index('uq_passkeys_credential_id', { unique: true })
  @Column({ type: 'text' })
  credential_id!: string;
  @Column({ type: 'bytea', select: false }) public_key!: Buffer;
  @Column({ type: 'bigint', default: 0 }) counter!: string;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) transports!: string[];
  @Column({ type: 'text', nullable: true }) aaguid!: string | null;
  /** `singleDevice` or `multiDevice` (a synced passkey), as the authenticator reported it at registration. */
  @Column({ type: 'text' }) device_type!: string;
  @Column({ type: 'boolean', default: false }) backed_up!: boolean;
  @Column({ type: 'text' }) name!: string;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @Column({ type: 'timestamptz', nullable: true }) last_used!: Date | null;
  @Column({ type: 'timestamptz', nullable: true }) flagged_at!: Date | null;
}

/**
 * An account's WebAuthn user handle (`user.id` of the creation options, `userHandle` of a discoverable
 * credential's assertion): 32 random bytes, base64url, made at the account's first registration. Never the
 * email or the account id, so an authenticator holds nothing that names the person to another site.
 */
@Entity('webauthn_user_handles')
export class WebauthnUserHandleEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_webauthn_user_handles' }) user_id!: string;
  @References(() => UserEntity, 'user_id', { foreignKey: 'FK_webauthn_user_handles_user' })
  user?: Relation<UserEntity>;
  @Index('uq_webauthn_user_handles_handle', { unique: true })
  @Column({ type: 'text' })
  handle!: string;
}

/** The WebAuthn ceremonies: creating a passkey, or signing in with one. */
export const WEBAUTHN_CEREMONIES = ['registration', 'authentication'] as const;
export type WebauthnCeremony = (typeof WEBAUTHN_CEREMONIES)[number];

/**
 * A challenge handed out with a ceremony's options, kept by its SHA-256 only. Used once (`used_at`, set by the
 * statement that claims it), for five minutes, and only for the ceremony it was made for: a registration for
 * `user_id`; a sign-in for `user_id` when the options named an account (null: usernameless), or for the
 * temporary token `temp_token_id` when it is the second step of a password sign-in.
 */
@Entity('webauthn_challenges')
export class WebauthnChallengeEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_webauthn_challenges' })
  challenge_sha256!: string;
  @Column({ type: 'text' }) ceremony!: WebauthnCeremony;
  @Column({ type: 'uuid', nullable: true }) user_id!: string | null;
  @References(() => UserEntity, 'user_id', { foreignKey: 'FK_webauthn_challenges_user' })
  user?: Relation<UserEntity>;
  @Column({ type: 'uuid', nullable: true }) temp_token_id!: string | null;
  /** The assertion must carry user verification (a passwordless sign-in: the passkey is both factors). */
  @Column({ type: 'boolean' }) require_uv!: boolean;
  @ExpiryColumn('ix_webauthn_challenges_expires') expires!: Date;
  @Column({ type: 'timestamptz', nullable: true }) used_at!: Date | null;
}
