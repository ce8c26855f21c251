import { UserEntity } from './user.entity.js';
import { GroupEntity } from './group.entity.js';
import {
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  JoinColumn,
  ManyToOne,
  type Relation,
} from 'typeorm';

@Entity('group_members')
@Index('ix_group_members_user', ['user_id'])
export class GroupMemberEntity {
  @PrimaryColumn({ type: 'uuid' }) group_id!: string;
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @ManyToOne(() => GroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id' })
  group?: Relation<GroupEntity>;
  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<UserEntity>;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
