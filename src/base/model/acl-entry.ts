import { Column, CreateDateColumn, UpdateDateColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { GroupEntity } from './group.entity.js';
import { UserEntity } from './user.entity.js';

type RowClass = abstract new (...args: any[]) => object;

/**
 * The columns of one ACL entry (asset_acls, collection_acls) after `Row`'s, which name what it is on: a user's
 * or a group's permissions (exactly one of user_id and group_id), and when the entry was made and changed.
 */
export function AclEntryColumns<T extends RowClass>(Row: T) {
  abstract class AclEntry extends Row {
    @Column({ type: 'uuid', nullable: true }) user_id!: string | null;
    @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
    @Column({ type: 'uuid', nullable: true }) group_id!: string | null;
    @References(() => GroupEntity, 'group_id') group?: Relation<GroupEntity>;
    @Column({ type: 'text', array: true }) permissions!: string[];
    @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
    @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
  }
  return AclEntry;
}
