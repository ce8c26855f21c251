import { Column, Entity, PrimaryColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { SystemDomainEntity } from './system-domain.entity.js';
import { UserEntity } from './user.entity.js';

/**
 * A user's photo as one domain shows it: one per user and domain, so an administrator of one domain never
 * changes what another domain shows of a person who belongs to both. Goes with the user or the domain.
 */
@Entity('user_photos')
export class UserPhotoEntity {
  @PrimaryColumn({ type: 'uuid' }) user_id!: string;
  @PrimaryColumn({ type: 'uuid' }) system_domain_id!: string;
  @References(() => UserEntity, 'user_id', { foreignKey: 'FK_user_photos_user' })
  user?: Relation<UserEntity>;
  @References(() => SystemDomainEntity, 'system_domain_id', { foreignKey: 'FK_user_photos_domain' })
  system_domain?: Relation<SystemDomainEntity>;
  /** What the bytes are (image/png, jpeg, gif, webp), never what the client claimed. */
  @Column({ type: 'text' }) content_type!: string;
  @Column({ type: 'bytea' }) bytes!: Buffer;
  @Column({ type: 'text' }) sha256!: string;
  @Column({ type: 'timestamptz' }) date_modified!: Date;
}
