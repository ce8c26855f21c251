import { wireDate } from '../../base/common/http/wire-date.js';
import type { CollectionEntity } from '../../base/model/collection.entity.js';
import type { CollectionDto } from './dto/collection.dto.js';

/** What a collection's view needs beyond its row: what the caller may do and see around it. */
export interface CollectionContext {
  permissions: string[];
  /** Ancestors the caller may read, the root first. */
  parents: string[];
  /** Collections containing it that the caller may read. */
  in_collections: string[];
  /** Its metadata values, field → values ({} when it has none). */
  metadata?: Record<string, unknown[]>;
}

/**
 * The columns a view is made of: a row of the table, or a search hit's document (whose dates arrive as JSON
 * strings).
 */
export type CollectionRow = Pick<
  CollectionEntity,
  | 'id'
  | 'title'
  | 'status'
  | 'category'
  | 'external_id'
  | 'custom_order_status'
  | 'parent_id'
  | 'system_domain_id'
  | 'created_by_user'
  | 'deleted_by_user'
> & { date_created: Date | string; date_modified: Date | string; date_deleted: Date | string | null };

/** A collection as CollectionSchema describes it (the fields this service does not keep have their defaults). */
export function collectionView(c: CollectionRow, ctx: CollectionContext): CollectionDto {
  return {
    id: c.id,
    title: c.title,
    status: c.status,
    category: c.category,
    external_id: c.external_id,
    custom_order_status: c.custom_order_status,
    custom_keyframe: null,
    custom_poster: null,
    favoured: false,
    keyframe_asset_ids: [],
    keyframes: [],
    metadata: ctx.metadata ?? {},
    object_type: 'collection',
    parent_id: c.parent_id,
    parents: ctx.parents,
    is_root: c.parent_id === null,
    in_collections: ctx.in_collections,
    position: 0,
    project_id: null,
    storage_id: null,
    system_domain_id: c.system_domain_id,
    created_by_user: c.created_by_user,
    deleted_by_user: c.deleted_by_user,
    date_created: wireDate(c.date_created),
    date_modified: wireDate(c.date_modified),
    date_deleted: c.date_deleted ? wireDate(c.date_deleted) : null,
    permissions: ctx.permissions,
  };
}
