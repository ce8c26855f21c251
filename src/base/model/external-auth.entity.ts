import { SystemDomainEntity } from './system-domain.entity.js';
import { UserEntity } from './user.entity.js';
import { AppEntity } from './app.entity.js';
import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { References } from './references.js';

export interface RedirectInfo {
  url: string | null;
  headers: Record<string, string> | null;
}

/**
 * A pairing request: an external program (desktop client, plug-in) shows or opens a random secret; a
 * signed-in user approves it for an app; the program then collects a token once with that secret.
 */
@Entity('external_auth_requests')
export class ExternalAuthEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Index('uq_external_auth_secret', { unique: true })
  @Column({ type: 'text' })
  secret_hash!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @References(() => SystemDomainEntity, 'system_domain_id', {
    foreignKey: 'FK_external_auth_requests_domain',
  })
  system_domain?: Relation<SystemDomainEntity>;
  @Column({ type: 'uuid' }) app_id!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @References(() => AppEntity, 'app_id') app?: Relation<AppEntity>;
  @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
  @Column({ type: 'jsonb', nullable: true }) redirect_info!: RedirectInfo | null;
  @Column({ type: 'timestamptz' }) expires!: Date;
  @Column({ type: 'uuid', nullable: true }) token_id!: string | null;
  /** The approver's rights at approval (their credential's ceiling): the collected token's ceiling. */
  @Column({ type: 'text', array: true }) rights_cap!: string[];
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
