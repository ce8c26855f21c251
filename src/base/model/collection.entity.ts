import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
  type Relation,
} from 'typeorm';
import { References } from './references.js';
import { DomainRow } from './system-domain.entity.js';
import { AclEntryColumns } from './acl-entry.js';

export const COLLECTION_STATUSES = ['ACTIVE', 'HIDDEN', 'DELETED'] as const;
/** What a collection may contain. */
export const COLLECTION_OBJECT_TYPES = ['asset', 'collection'] as const;
export type CollectionObjectType = (typeof COLLECTION_OBJECT_TYPES)[number];

/**
 * A collection of a domain: a named set of assets and other collections, itself nested under at most one
 * parent (`parent_id`, no cycles). Deletion is soft as for assets (`date_deleted`, `deleted_by_user`, status
 * DELETED): a deleted collection is 404 to every read until it is restored from the delete queue or purged.
 * `search_vector` is its search document (the title, weight A), written in the transaction of every change
 * to the title; the GIN index over it is created by the migration (TypeORM cannot declare one).
 */
@Entity('collections')
@Index('ix_collections_domain_created', ['system_domain_id', 'date_created'])
@Index('ix_collections_parent', ['parent_id'])
@Index('ix_collections_search', { synchronize: false })
export class CollectionEntity extends DomainRow {
  @Column({ type: 'text' }) title!: string;
  @Column({ type: 'text', default: 'ACTIVE' }) status!: string;
  @Column({ type: 'text', nullable: true }) category!: string | null;
  @Column({ type: 'text', nullable: true }) external_id!: string | null;
  @Column({ type: 'text', default: 'DISABLED' }) custom_order_status!: string;
  /** The collection it is nested under; purging the parent makes its children roots. */
  @Column({ type: 'uuid', nullable: true }) parent_id!: string | null;
  @References(() => CollectionEntity, 'parent_id', { onDelete: 'SET NULL' })
  parent?: Relation<CollectionEntity>;
  @Column({ type: 'uuid', nullable: true }) created_by_user!: string | null;
  @Column({ type: 'uuid', nullable: true }) deleted_by_user!: string | null;
  @Column({ type: 'timestamptz', nullable: true }) date_deleted!: Date | null;
  @Column({ type: 'tsvector', nullable: true, select: false }) search_vector?: string | null;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) date_modified!: Date;
}

/**
 * The columns a table of a collection's parts (contents, ACL entries) begins with: the row's id and its
 * collection, whose foreign key (ON DELETE CASCADE) takes the row with the collection.
 */
export abstract class CollectionRow {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid' }) collection_id!: string;
  @References(() => CollectionEntity, 'collection_id') collection?: Relation<CollectionEntity>;
}

/**
 * One object in a collection: an asset or a collection (`object_id` names either, so it has no foreign
 * key; an object that is deleted or gone is hidden from the contents). Each object is in a collection once.
 */
@Entity('collection_contents')
@Index('uq_collection_contents', ['collection_id', 'object_type', 'object_id'], { unique: true })
@Index('ix_collection_contents_object', ['object_type', 'object_id'])
export class CollectionContentEntity extends CollectionRow {
  @Column({ type: 'text' }) object_type!: string;
  @Column({ type: 'uuid' }) object_id!: string;
  @CreateDateColumn({ type: 'timestamptz' }) date_created!: Date;
}

/**
 * One entry of a collection's ACL, as `asset_acls` is for assets: a user's or a group's permissions on it
 * (exactly one of user_id and group_id). A domain administrator holds all of them on every collection.
 */
@Entity('collection_acls')
@Index('uq_collection_acls_user', ['collection_id', 'user_id'], {
  unique: true,
  where: '"user_id" IS NOT NULL',
})
@Index('uq_collection_acls_group', ['collection_id', 'group_id'], {
  unique: true,
  where: '"group_id" IS NOT NULL',
})
@Index('ix_collection_acls_collection', ['collection_id'])
@Index('ix_collection_acls_user', ['user_id'])
@Index('ix_collection_acls_group', ['group_id'])
export class CollectionAclEntity extends AclEntryColumns(CollectionRow) {}
