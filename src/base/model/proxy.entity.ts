import { Column, CreateDateColumn, Entity, Index, UpdateDateColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { AssetRow } from './asset.entity.js';
import { FileEntity, type JsonObject } from './file.entity.js';

/**
 * A proxy of an asset (a lower-resolution rendition a player shows): its description, and the file that holds
 * its bytes. The bytes go through the files' resumable upload and signed downloads unchanged: `file_id` is a
 * file row of the same asset (in a PROXIES storage), which carries the upload's state, the status, the size
 * and the checksum. Deleting a proxy removes its row and deletes that file (its bytes removed in the background).
 */
@Entity('proxies')
@Index('ix_proxies_asset', ['asset_id', 'version_id'])
@Index('ix_proxies_file', ['file_id'], { unique: true })
export class ProxyEntity extends AssetRow {
  @Column({ type: 'uuid' }) file_id!: string;
  @References(() => FileEntity, 'file_id') file?: Relation<FileEntity>;
  @Column({ type: 'uuid', nullable: true }) version_id!: string | null;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text' }) filename!: string;
  @Column({ type: 'text', nullable: true }) format!: string | null;
  @Column({ type: 'text', nullable: true }) codec!: string | null;
  @Column({ type: 'integer', nullable: true }) audio_bitrate!: number | null;
  @Column({ type: 'integer', nullable: true }) bit_rate!: number | null;
  @Column({ type: 'text', nullable: true }) frame_rate!: string | null;
  @Column({ type: 'boolean', default: false }) is_drop_frame!: boolean;
  @Column({ type: 'boolean', default: false }) is_public!: boolean;
  @Column({ type: 'jsonb', nullable: true }) resolution!: JsonObject | null;
  @Column({ type: 'integer', nullable: true }) rotation!: number | null;
  @Column({ type: 'text', nullable: true }) start_time_code!: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}
