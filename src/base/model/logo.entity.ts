import { Column, Entity, PrimaryColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { SystemDomainEntity } from './system-domain.entity.js';

/**
 * A domain's logo, kept in the database so every instance serves the same bytes (no shared disk). One row per
 * domain; it goes with the domain (ON DELETE CASCADE). `sha256` (hex) versions `logo_url` and is the ETag.
 */
@Entity('system_domain_logos')
export class SystemDomainLogoEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_system_domain_logos' })
  system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id', { foreignKey: 'FK_system_domain_logos_domain' })
  system_domain?: Relation<SystemDomainEntity>;
  /** One of image/png, image/jpeg, image/gif, image/webp: what the bytes are, never what the client claimed. */
  @Column({ type: 'text' }) content_type!: string;
  @Column({ type: 'bytea' }) bytes!: Buffer;
  @Column({ type: 'text' }) sha256!: string;
  @Column({ type: 'timestamptz' }) date_modified!: Date;
}
