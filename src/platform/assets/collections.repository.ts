import { Injectable } from '@nestjs/common';
import { type EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import type { AuthContext } from '../../base/common/auth/auth-context.js';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { insertRow } from '../../base/database/insert-row.js';
import { escapeLike } from '../../base/database/sql-helpers.js';
import {
  CollectionContentEntity,
  CollectionEntity,
  type CollectionObjectType,
} from '../../base/model/collection.entity.js';
import { readableSql } from './asset-acl-sql.js';
import { collectionReadableSql, seesAllCollections } from './collection-acl-sql.js';
import { COLLECTION_SEARCH_DOCUMENT_SQL } from './search-document.js';

/** One object in a collection. */
export type ContentKey = { collection_id: string; object_type: CollectionObjectType; object_id: string };

/** Deeper than this a chain of parents is cut (a guard: the service refuses cycles). */
const MAX_DEPTH = 1000;

/**
 * The collections' door to the database: collections and their contents (their ACL entries are in
 * collection-acls.repository.ts). Methods that take part in a change take the change's EntityManager.
 */
@Injectable()
export class CollectionsRepository extends FeatureRepository {
  // ---- collections
  insertCollection(em: EntityManager, fields: Partial<CollectionEntity>): Promise<CollectionEntity> {
    return insertRow(em, CollectionEntity, fields);
  }

  async updateCollection(em: EntityManager, id: string, changes: Partial<CollectionEntity>): Promise<void> {
    await em.update(CollectionEntity, { id }, changes);
  }

  /** The collection of the domain (deleted ones too), or null. */
  inDomain(em: EntityManager, id: string, systemDomainId: string): Promise<CollectionEntity | null> {
    return em.findOneBy(CollectionEntity, { id, system_domain_id: systemDomainId });
  }

  /** The collection of the domain (deleted ones too) with its row held for the transaction, or null. */
  lockInDomain(em: EntityManager, id: string, systemDomainId: string): Promise<CollectionEntity | null> {
    return em.findOne(CollectionEntity, {
      where: { id, system_domain_id: systemDomainId },
      lock: { mode: 'pessimistic_write' },
    });
  }

  /** These collections (any domain, any state: callers filter), in no particular order. */
  byIds(em: EntityManager, ids: string[]): Promise<CollectionEntity[]> {
    return ids.length ? em.findBy(CollectionEntity, { id: In(ids) }) : Promise.resolve([]);
  }

  /** Rebuilds the search document of one collection (after its title or its metadata changed). */
  async refreshSearchDocument(em: EntityManager, id: string): Promise<void> {
    // raw: to_tsvector/setweight (COLLECTION_SEARCH_DOCUMENT_SQL)
    await em.query(
      `UPDATE collections c SET search_vector = ${COLLECTION_SEARCH_DOCUMENT_SQL} WHERE c.id = $1`,
      [id],
    );
  }

  /**
   * The metadata of each of `ids`, field → values (the `value` of each entry), in one statement; a collection
   * without values is absent. `collection_metadata_values` is the metadata feature's table, read by name.
   */
  async metadataOf(em: EntityManager, ids: string[]): Promise<Map<string, Record<string, unknown[]>>> {
    if (ids.length === 0) return new Map();
    // raw: jsonb_array_elements over the metadata feature's table (this folder must not import its entities)
    const rows = (await em.query(
      `SELECT mv.collection_id, mv.field_name,
              (SELECT coalesce(jsonb_agg(e.item -> 'value'), '[]'::jsonb)
                 FROM jsonb_array_elements(mv.field_values) AS e(item)) AS field_values
         FROM collection_metadata_values mv
        WHERE mv.collection_id = ANY($1::uuid[])
        ORDER BY mv.collection_id, mv.field_name`,
      [ids],
    )) as { collection_id: string; field_name: string; field_values: unknown[] }[];
    const out = new Map<string, Record<string, unknown[]>>();
    for (const r of rows) {
      const m = out.get(r.collection_id) ?? {};
      m[r.field_name] = r.field_values;
      out.set(r.collection_id, m);
    }
    return out;
  }

  /**
   * The collections of the domain the caller may read, live (or, with `deleted`, those in the delete queue),
   * whose title contains `text` (all without it), for pageList.
   */
  readableQuery(
    auth: AuthContext,
    o: { text?: string; deleted?: boolean } = {},
  ): SelectQueryBuilder<CollectionEntity> {
    const qb = this.ds
      .getRepository(CollectionEntity)
      .createQueryBuilder('c')
      .where('c.system_domain_id = :domainId', { domainId: auth.systemDomainId })
      .andWhere(o.deleted ? 'c.date_deleted IS NOT NULL' : 'c.date_deleted IS NULL');
    if (!seesAllCollections(auth)) {
      qb.andWhere(collectionReadableSql(auth, 'c', ':userId'), { userId: auth.userId });
    }
    if (o.text) qb.andWhere('c.title ILIKE :q', { q: `%${escapeLike(o.text)}%` });
    return qb;
  }

  /**
   * For each of `ids`, the ids of its ancestors, the root first (a chain longer than MAX_DEPTH is cut). A
   * collection without a parent is absent from the map.
   */
  async ancestorIds(em: EntityManager, ids: string[]): Promise<Map<string, string[]>> {
    if (ids.length === 0) return new Map();
    // raw: a recursive CTE walks up the parents of every collection of the page at once
    const rows = (await em.query(
      `WITH RECURSIVE up(start, id, parent_id, depth) AS (
         SELECT c.id, p.id, p.parent_id, 1 FROM collections c JOIN collections p ON p.id = c.parent_id
          WHERE c.id = ANY($1::uuid[])
         UNION ALL
         SELECT up.start, p.id, p.parent_id, up.depth + 1 FROM up JOIN collections p ON p.id = up.parent_id
          WHERE up.depth < ${MAX_DEPTH})
       SELECT start, id FROM up ORDER BY start, depth DESC`,
      [ids],
    )) as { start: string; id: string }[];
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.start, [...(out.get(r.start) ?? []), r.id]);
    return out;
  }

  /** The ids of the collections nested directly under one (live or not) of the domain. */
  async childIds(em: EntityManager, id: string, systemDomainId: string): Promise<string[]> {
    const rows = await em.find(CollectionEntity, {
      select: { id: true },
      where: { parent_id: id, system_domain_id: systemDomainId },
    });
    return rows.map((r) => r.id);
  }

  /**
   * Serialises the moves of a domain's collections until the transaction ends (an advisory lock): two moves
   * that each pass the cycle check alone could otherwise together close a loop.
   */
  async lockTree(em: EntityManager, systemDomainId: string): Promise<void> {
    // raw: a transaction-scoped advisory lock (pg_advisory_xact_lock), no table involved
    await em.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`collections-tree:${systemDomainId}`]);
  }

  /** Deletes collections for good; their contents, ACL entries and their places in other collections go. */
  async purge(em: EntityManager, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await em.delete(CollectionContentEntity, { object_type: 'collection', object_id: In(ids) });
    await em.delete(CollectionEntity, { id: In(ids) });
  }

  // ---- contents
  content(em: EntityManager, key: ContentKey): Promise<CollectionContentEntity | null> {
    return em.findOneBy(CollectionContentEntity, key);
  }

  /**
   * Adds the object unless it is there already; answers whether this call added it. A concurrent add of the
   * same object is one of the two: the insert that loses ON CONFLICT DO NOTHING returns no row, and answers
   * false (so only the winner records a `content_add` event).
   */
  async insertContent(em: EntityManager, key: ContentKey): Promise<boolean> {
    if (await this.content(em, key)) return false;
    // a copy: the insert writes the generated id and date_created back into the object it is given, and the
    // caller looks the entry up by `key` afterwards (a date in milliseconds never equals the stored microseconds)
    const res = await em
      .createQueryBuilder()
      .insert()
      .into(CollectionContentEntity)
      .values({ ...key })
      .orIgnore()
      .returning(['id'])
      .execute();
    return Array.isArray(res.raw) && res.raw.length > 0;
  }

  /** Removes the object from the collection; answers whether it was there. */
  async deleteContent(em: EntityManager, key: ContentKey): Promise<boolean> {
    const res = await em.delete(CollectionContentEntity, key);
    return (res.affected ?? 0) > 0;
  }

  /** Every object in the collection (live or not), oldest first. */
  contentsOf(em: EntityManager, collectionId: string): Promise<CollectionContentEntity[]> {
    return em.find(CollectionContentEntity, {
      where: { collection_id: collectionId },
      order: { date_created: 'ASC', id: 'ASC' },
    });
  }

  /**
   * A page of the objects in a collection that the caller may read (live assets and collections of the
   * domain, read through the ACL or as an administrator), oldest first, and how many there are in all.
   */
  async contentsPage(
    em: EntityManager,
    auth: AuthContext,
    collectionId: string,
    page: { offset: number; limit: number },
  ): Promise<{ rows: { object_type: CollectionObjectType; object_id: string }[]; total: number }> {
    const all = seesAllCollections(auth);
    const user = all ? '' : '$5::uuid';
    // raw: one statement over both kinds of objects, each under its own ACL condition, with the total
    const rows = (await em.query(
      `SELECT cc.object_type, cc.object_id, count(*) OVER () AS total
         FROM collection_contents cc
         LEFT JOIN assets a ON cc.object_type = 'asset' AND a.id = cc.object_id
         LEFT JOIN collections c ON cc.object_type = 'collection' AND c.id = cc.object_id
        WHERE cc.collection_id = $1
          AND ((a.id IS NOT NULL AND a.system_domain_id = $2 AND a.date_deleted IS NULL
                AND ${all ? 'TRUE' : readableSql(auth, 'a', user)})
            OR (c.id IS NOT NULL AND c.system_domain_id = $2 AND c.date_deleted IS NULL
                AND ${collectionReadableSql(auth, 'c', user)}))
        ORDER BY cc.date_created, cc.id
        OFFSET $3 LIMIT $4`,
      all
        ? [collectionId, auth.systemDomainId, page.offset, page.limit]
        : [collectionId, auth.systemDomainId, page.offset, page.limit, auth.userId],
    )) as { object_type: CollectionObjectType; object_id: string; total: string }[];
    let total = rows.length ? Number(rows[0]!.total) : 0;
    if (rows.length === 0 && page.offset > 0) {
      total = (await this.contentsPage(em, auth, collectionId, { offset: 0, limit: 1 })).total;
    }
    return { rows: rows.map(({ object_type, object_id }) => ({ object_type, object_id })), total };
  }

  /**
   * For each of `ids` (objects of `type`), the ids of the live collections of the caller's domain that
   * contain it and that the caller may read (`in_collections`), oldest membership first.
   */
  async containing(
    em: EntityManager,
    auth: AuthContext,
    type: CollectionObjectType,
    ids: string[],
  ): Promise<Map<string, string[]>> {
    if (ids.length === 0) return new Map();
    const all = seesAllCollections(auth);
    // raw: the collection ACL condition (collectionReadableSql) over the memberships of a page of objects
    const rows = (await em.query(
      `SELECT cc.object_id, cc.collection_id FROM collection_contents cc
         JOIN collections c ON c.id = cc.collection_id
        WHERE cc.object_type = $1 AND cc.object_id = ANY($2::uuid[]) AND c.system_domain_id = $3
          AND c.date_deleted IS NULL AND ${collectionReadableSql(auth, 'c', '$4::uuid')}
        ORDER BY cc.date_created, cc.id`,
      all ? [type, ids, auth.systemDomainId] : [type, ids, auth.systemDomainId, auth.userId],
    )) as { object_id: string; collection_id: string }[];
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.object_id, [...(out.get(r.object_id) ?? []), r.collection_id]);
    return out;
  }
}
