import { GroupEntity } from './group.entity.js';
import { SystemDomainEntity } from './system-domain.entity.js';
import { UserEntity } from './user.entity.js';
import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, type Relation } from 'typeorm';
import { References } from './references.js';

/** Membership of a user in a system domain (a user may belong to several). */
@Entity('user_system_domains')
@Index('ix_user_system_domains_domain', ['system_domain_id'])
export class UserSystemDomainEntity {
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @PrimaryColumn({ type: 'uuid' }) system_domain_id!: string;
  @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
  @References(() => SystemDomainEntity, 'system_domain_id') system_domain?: Relation<SystemDomainEntity>;
  /** Administrator of this domain (admin rights are per domain: joining another domain grants none there). */
  @Column({ type: 'boolean', default: false }) is_admin!: boolean;
  /** Set on a membership made by a partner domain access grant: the partner domain (revoking removes it). */
  @Column({ type: 'uuid', nullable: true }) via_partner_domain_id!: string | null;
  @References(() => SystemDomainEntity, 'via_partner_domain_id', {
    nullable: true,
    foreignKey: 'FK_user_system_domains_via_partner',
  })
  via_partner_domain?: Relation<SystemDomainEntity>;
  /** The member's primary group here (the published User's primary_group), e.g. an invitation link's. */
  @Column({ type: 'uuid', nullable: true }) primary_group_id!: string | null;
  @References(() => GroupEntity, 'primary_group_id', {
    onDelete: 'SET NULL',
    nullable: true,
    foreignKey: 'FK_user_system_domains_primary_group',
  })
  primary_group?: Relation<GroupEntity>;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
