import { Column, CreateDateColumn, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { References } from './references.js';
import { AppEntity } from './app.entity.js';
import { UserEntity } from './user.entity.js';

/**
 * The columns every row of an OAuth authorization shares (its authorization codes and refresh tokens): the
 * client, the user and the domain it acts in, the scopes, the single use, the grant every token of the
 * authorization descends from, and whether the approving sign-in passed a second factor. Each entity adds its
 * own secret's hash and columns, and the domain's relation (whose foreign key each table names itself).
 */
export abstract class OAuthGrantColumns {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid' }) app_id!: string;
  @Column({ type: 'uuid' }) user_id!: string;
  @Column({ type: 'uuid' }) system_domain_id!: string;
  @References(() => AppEntity, 'app_id') app?: Relation<AppEntity>;
  @References(() => UserEntity, 'user_id') user?: Relation<UserEntity>;
  @Column({ type: 'text', array: true }) scopes!: string[];
  @Column({ type: 'timestamptz' }) expires!: Date;
  /** Claimed once, by one compare-and-set UPDATE: of concurrent presentations exactly one wins. */
  @Column({ type: 'timestamptz', nullable: true }) used_at!: Date | null;
  /** The authorization this row belongs to: every refresh and access token descended from it carries it. */
  @Column({ type: 'uuid' }) grant_id!: string;
  /** The approving sign-in passed a second factor: every token of the authorization says so. */
  @Column({ type: 'boolean', default: false }) is_mfa_authenticated!: boolean;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}
