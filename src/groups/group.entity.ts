import { SystemDomainEntity } from '../system-domains/system-domain.entity.js';
import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  JoinColumn,
  ManyToOne,
  type Relation,
} from 'typeorm';

/** Groups carry roles; a user's roles in a domain are the union of their groups' roles there. */
@Entity('groups')
@Index('uq_groups_domain_name', ['system_domain_id', 'name'], { unique: true })
export class GroupEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @ManyToOne(() => SystemDomainEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'system_domain_id' })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', nullable: true }) description!: string | null;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) roles!: string[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
