import { UserEntity } from './user.entity.js';
import { GroupEntity } from './group.entity.js';
import { CreateDateColumn, Entity, Index, PrimaryColumn, type Relation } from 'typeorm';
import { References } from './references.js';

@Entity('group_members')
@Index('ix_group_members_user', ['user_id'])
export class GroupMemberEntity {
  @PrimaryColumn({ type: 'uuid' }) group_id!: string;
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @References(() => GroupEntity, 'group_id') group?: Relation<GroupEntity>;
  @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
