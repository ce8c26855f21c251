import { UserEntity, type UserType } from './user.entity.js';
import { Column, CreateDateColumn, Entity, Index, type Relation } from 'typeorm';
import { References } from './references.js';
import { DomainRow } from './system-domain.entity.js';

/**
 * An invitation of an email into a domain. Until the invited person accepts it, it is all the domain has:
 * no account is created or joined, so the domain learns nothing about accounts elsewhere and reserves
 * nothing outside itself. The link carries a 256-bit secret; only its SHA-256 is stored, so a database dump
 * cannot be turned into working links. At most one invitation per domain and email is pending.
 */
@Entity('invitations')
@Index('ix_invitations_domain_user', ['system_domain_id', 'user_id'])
@Index('uq_invitations_pending', ['system_domain_id', 'email'], {
  unique: true,
  where: '"accepted_at" IS NULL',
})
export class InvitationEntity extends DomainRow {
  /** Lower-cased, as accounts store it. */
  @Column({ type: 'text' }) email!: string;
  /** For a new account only: what the inviter knew of the person's name. */
  @Column({ type: 'text', nullable: true }) first_name!: string | null;
  @Column({ type: 'text', nullable: true }) last_name!: string | null;
  /** The new account's type; a pending invitation holds a seat of that type (users/seat-limits.ts). */
  @Column({ type: 'text', default: 'STANDARD' }) type!: UserType;
  /** The account that accepted; null while pending. */
  @Column({ type: 'uuid', nullable: true }) user_id!: string | null;
  @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
  /** Kept after the inviter leaves: the invitation stays valid, only its author is forgotten. */
  @Column({ type: 'uuid', nullable: true }) inviter_user_id!: string | null;
  @References(() => UserEntity, 'inviter_user_id', { onDelete: 'SET NULL', nullable: true })
  inviter?: Relation<UserEntity>;
  @Index('uq_invitations_reset_hash', { unique: true })
  @Column({ type: 'text', select: false })
  reset_hash_sha256!: string;
  /** Made from an invitation link: the groups the person joins and whether as an administrator. */
  @Column({ type: 'uuid', array: true, default: () => "'{}'" }) group_ids!: string[];
  @Column({ type: 'boolean', default: false }) is_admin!: boolean;
  @Column({ type: 'timestamptz' }) expires!: Date;
  @Column({ type: 'timestamptz', nullable: true }) accepted_at!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
