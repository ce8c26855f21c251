import { SystemDomainEntity } from './system-domain.entity.js';
import { UserEntity } from './user.entity.js';
import { Column, CreateDateColumn, Entity, PrimaryColumn, type Relation } from 'typeorm';
import { References } from './references.js';

/**
 * A customer domain's grant of access to a partner domain (POST /v1/users/partner_domain_access/): the partner
 * domain's administrators are administrators of the customer domain until it is revoked.
 */
@Entity('partner_domain_access')
export class PartnerDomainAccessEntity {
  @PrimaryColumn({ type: 'uuid' }) customer_domain_id!: string;
  @PrimaryColumn({ type: 'uuid' }) partner_domain_id!: string;
  @References(() => SystemDomainEntity, 'customer_domain_id', {
    foreignKey: 'FK_partner_domain_access_customer',
  })
  customer_domain?: Relation<SystemDomainEntity>;
  @References(() => SystemDomainEntity, 'partner_domain_id', {
    foreignKey: 'FK_partner_domain_access_partner',
  })
  partner_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'uuid', nullable: true }) granted_by_user_id!: string | null;
  @References(() => UserEntity, 'granted_by_user_id', {
    onDelete: 'SET NULL',
    nullable: true,
    foreignKey: 'FK_partner_domain_access_granted_by',
  })
  granted_by?: Relation<UserEntity>;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
