import { Column, Entity, Index, PrimaryColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { References } from './references.js';
import { SystemDomainEntity } from './system-domain.entity.js';
import { UserEntity } from './user.entity.js';

/** The enterprise extension's fields a provisioning client keeps on a user (RFC 7643 §4.3). */
export interface ScimEnterprise {
  department?: string;
  employeeNumber?: string;
  manager?: { value?: string };
}

/**
 * What a domain's provisioning client (SCIM, src/sign-in/scim/) says of an account that domain owns, beyond
 * the account's own fields (email, names, status): its id in the identity provider (`externalId`), its display
 * name and the enterprise extension. The row goes with the account or the membership.
 */
@Entity('scim_profiles')
@Index('ix_scim_profiles_domain_external', ['system_domain_id', 'external_id'])
export class ScimProfileEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_scim_profiles' }) user_id!: string;
  @References(() => UserEntity, 'user_id', { foreignKey: 'FK_scim_profiles_user' })
  user?: Relation<UserEntity>;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id', { foreignKey: 'FK_scim_profiles_domain' })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'text', nullable: true }) external_id!: string | null;
  @Column({ type: 'text', nullable: true }) display_name!: string | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) enterprise!: ScimEnterprise;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
