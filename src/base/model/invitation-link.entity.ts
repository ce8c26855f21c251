import { GroupEntity } from './group.entity.js';
import { SystemDomainEntity } from './system-domain.entity.js';
import { UserEntity, type UserType } from './user.entity.js';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { References } from './references.js';

/**
 * A reusable invitation link for a group (POST /v1/users/invite/token/request/). Whoever holds the link may
 * ask for an invitation for their own email (users/invite/register/): the single-use invitation is mailed to
 * that address, so the link never signs anyone in by itself. Only the SHA-256 of the link's 256-bit secret is
 * stored. It dies with its creator, its primary group and its domain, at `expires`, and on purge.
 */
@Entity('invitation_links')
@Index('ix_invitation_links_domain', ['system_domain_id'])
export class InvitationLinkEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id', { foreignKey: 'FK_invitation_links_domain' })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'uuid' }) created_by_user_id!: string;
  @References(() => UserEntity, 'created_by_user_id', { foreignKey: 'FK_invitation_links_creator' })
  created_by?: Relation<UserEntity>;
  @Column({ type: 'uuid' }) primary_group_id!: string;
  @References(() => GroupEntity, 'primary_group_id', { foreignKey: 'FK_invitation_links_group' })
  primary_group?: Relation<GroupEntity>;
  /** Further groups of the domain the invited person joins (besides the primary group). */
  @Column({ type: 'uuid', array: true, default: () => "'{}'" }) group_ids!: string[];
  @Column({ type: 'boolean', default: false }) is_admin!: boolean;
  @Column({ type: 'text', default: 'STANDARD' }) type!: UserType;
  @Index('uq_invitation_links_secret', { unique: true })
  @Column({ type: 'text', select: false })
  secret_sha256!: string;
  @Column({ type: 'timestamptz' }) expires!: Date;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
