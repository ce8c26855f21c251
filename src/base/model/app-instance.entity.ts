import { SystemDomainEntity } from './system-domain.entity.js';
import { UserEntity } from './user.entity.js';
import { AppEntity } from './app.entity.js';
import { Column, CreateDateColumn, Entity, PrimaryColumn, type Relation } from 'typeorm';
import { References } from './references.js';

/** An installation of an app (its id chosen by the installation) that a user approved to act for them. */
@Entity('approved_app_instances')
export class AppInstanceEntity {
  @PrimaryColumn({ type: 'uuid' }) id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id', {
    foreignKey: 'FK_approved_app_instances_domain',
  })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'uuid' }) app_id!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @References(() => AppEntity, 'app_id') app?: Relation<AppEntity>;
  @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
  /** The token handed to the instance; set on its one collection. */
  @Column({ type: 'uuid', nullable: true }) token_id!: string | null;
  /** The approver's rights at approval (their credential's ceiling): the collected token's ceiling. */
  @Column({ type: 'text', array: true }) rights_cap!: string[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
