import { CreateDateColumn, Column, Entity, Index, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { SystemDomainEntity } from './system-domain.entity.js';
import { GroupEntity } from './group.entity.js';

/**
 * An identity provider's group name → a group of the domain: at each single sign-on, a person whose assertion
 * names the group joins it (see GroupMappingsService.apply). The name is the key, unique per domain.
 */
@Entity('group_mappings')
@Index('uq_group_mappings_domain_name', ['system_domain_id', 'name'], { unique: true })
@Index('ix_group_mappings_group', ['group_id'])
export class GroupMappingEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_group_mappings' }) id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id', { foreignKey: 'FK_group_mappings_domain' })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'uuid' }) group_id!: string;
  @References(() => GroupEntity, 'group_id', { foreignKey: 'FK_group_mappings_group' })
  group?: Relation<GroupEntity>;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
