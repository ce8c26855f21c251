import { Column, Entity, PrimaryColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { GroupEntity } from './group.entity.js';

/** A group's or team's logo, in the database like the domain logos (every instance serves the same bytes). */
@Entity('group_logos')
export class GroupLogoEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_group_logos' }) group_id!: string;
  @References(() => GroupEntity, 'group_id', { foreignKey: 'FK_group_logos_group' })
  group?: Relation<GroupEntity>;
  /** What the bytes are (image/png, jpeg, gif, webp), never what the client claimed. */
  @Column({ type: 'text' }) content_type!: string;
  @Column({ type: 'bytea' }) bytes!: Buffer;
  @Column({ type: 'text' }) sha256!: string;
  @Column({ type: 'timestamptz' }) date_modified!: Date;
}
