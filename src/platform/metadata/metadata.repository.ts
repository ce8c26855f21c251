import { Injectable } from '@nestjs/common';
import { type EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { escapeLike } from '../../base/database/sql-helpers.js';
import { AssetEntity, AssetVersionEntity } from '../../base/model/asset.entity.js';
import { CollectionEntity } from '../../base/model/collection.entity.js';
import {
  CollectionMetadataValueEntity,
  MetadataCategoryEntity,
  MetadataValueEntity,
  MetadataViewEntity,
} from '../../base/model/metadata.entity.js';
import { insertRow } from '../../base/database/insert-row.js';

/**
 * The metadata's door to the database: views, asset categories and the values of an asset version's fields
 * (with the asset and version rows they hang off). Methods that take part in a change take the change's
 * EntityManager (`transaction(work)` opens it); reads outside one get `manager`.
 */
@Injectable()
export class MetadataRepository extends FeatureRepository {
  // ---- views

  /** The views of the domain whose name contains `text` (all without it), for pageList. */
  viewsQuery(systemDomainId: string, text: string | undefined): SelectQueryBuilder<MetadataViewEntity> {
    const qb = this.ds
      .getRepository(MetadataViewEntity)
      .createQueryBuilder('v')
      .where('v.system_domain_id = :domainId', { domainId: systemDomainId });
    if (text) qb.andWhere('v.name ILIKE :q', { q: `%${escapeLike(text)}%` });
    return qb;
  }

  /** A view of the domain, or null. */
  view(em: EntityManager, systemDomainId: string, id: string): Promise<MetadataViewEntity | null> {
    return em.findOneBy(MetadataViewEntity, { id, system_domain_id: systemDomainId });
  }

  /** Inserts a view; answers its generated id. */
  async insertView(em: EntityManager, fields: Partial<MetadataViewEntity>): Promise<string> {
    return (await insertRow(em, MetadataViewEntity, fields)).id;
  }

  async updateView(
    em: EntityManager,
    systemDomainId: string,
    id: string,
    changes: Partial<MetadataViewEntity>,
  ): Promise<void> {
    await em.update(MetadataViewEntity, { id, system_domain_id: systemDomainId }, changes);
  }

  async deleteView(em: EntityManager, systemDomainId: string, id: string): Promise<void> {
    await em.delete(MetadataViewEntity, { id, system_domain_id: systemDomainId });
  }

  /** How many of these views (ids, at least one) are the domain's. */
  countViews(systemDomainId: string, ids: string[]): Promise<number> {
    return this.ds
      .getRepository(MetadataViewEntity)
      .createQueryBuilder('v')
      .where('v.id IN (:...ids) AND v.system_domain_id = :d', { ids, d: systemDomainId })
      .getCount();
  }

  /** Drops a view from every category of the domain that names it. */
  async dropViewFromCategories(em: EntityManager, viewId: string, systemDomainId: string): Promise<void> {
    // raw: array_remove on a uuid[] column, matched with = ANY(…)
    await em.query(
      'UPDATE metadata_categories SET view_ids = array_remove(view_ids, $1::uuid) WHERE system_domain_id = $2 AND $1::uuid = ANY(view_ids)',
      [viewId, systemDomainId],
    );
  }

  // ---- categories

  /** The categories of `objectType` of the domain, for pageList. */
  categoriesQuery(systemDomainId: string, objectType: string): SelectQueryBuilder<MetadataCategoryEntity> {
    return this.ds
      .getRepository(MetadataCategoryEntity)
      .createQueryBuilder('c')
      .where('c.system_domain_id = :domainId AND c.object_type = :type', {
        domainId: systemDomainId,
        type: objectType,
      });
  }

  categoryNameTaken(systemDomainId: string, objectType: string, name: string): Promise<boolean> {
    return this.ds.getRepository(MetadataCategoryEntity).existsBy({
      system_domain_id: systemDomainId,
      object_type: objectType,
      name,
    });
  }

  /** Inserts a category and answers it as stored (a unique violation is the caller's to map). */
  async insertCategory(fields: Partial<MetadataCategoryEntity>): Promise<MetadataCategoryEntity> {
    const repo = this.ds.getRepository(MetadataCategoryEntity);
    const category = repo.create(fields);
    await repo.insert(category);
    return repo.findOneByOrFail({ id: category.id });
  }

  // ---- an asset's values

  /** The asset of the domain (deleted ones too), its row held for the transaction when `lock`, or null. */
  asset(em: EntityManager, systemDomainId: string, id: string, lock: boolean): Promise<AssetEntity | null> {
    return em.findOne(AssetEntity, {
      where: { id, system_domain_id: systemDomainId },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** Marks the asset modified (its metadata changed). */
  async touchAsset(em: EntityManager, assetId: string, at: Date): Promise<void> {
    await em.update(AssetEntity, { id: assetId }, { date_modified: at });
  }

  /** The version (it exists: it is an asset's current one). */
  versionOrFail(em: EntityManager, versionId: string): Promise<AssetVersionEntity> {
    return em.findOneByOrFail(AssetVersionEntity, { id: versionId });
  }

  /** The values of these fields (at least one) on a version. */
  values(em: EntityManager, versionId: string, fields: string[]): Promise<MetadataValueEntity[]> {
    return em.findBy(MetadataValueEntity, { version_id: versionId, field_name: In(fields) });
  }

  /** Every value row of a version, by field name. */
  allValues(em: EntityManager, versionId: string): Promise<MetadataValueEntity[]> {
    return em.find(MetadataValueEntity, { where: { version_id: versionId }, order: { field_name: 'ASC' } });
  }

  /** Clears one field of a version. */
  async deleteValues(em: EntityManager, versionId: string, field: string): Promise<void> {
    await em.delete(MetadataValueEntity, { version_id: versionId, field_name: field });
  }

  /** Sets one field's values on a version (inserted or replaced). */
  async upsertValues(
    em: EntityManager,
    v: { versionId: string; field: string; assetId: string; values: unknown[]; at: Date },
  ): Promise<void> {
    // raw: INSERT … ON CONFLICT (version_id, field_name) DO UPDATE with a jsonb parameter, one statement per field
    await em.query(
      `INSERT INTO metadata_values (version_id, field_name, asset_id, field_values, date_created, date_modified)
       VALUES ($1, $2, $3, $4::jsonb, $5, $5)
       ON CONFLICT (version_id, field_name)
       DO UPDATE SET field_values = EXCLUDED.field_values, date_created = $5, date_modified = $5`,
      [v.versionId, v.field, v.assetId, JSON.stringify(v.values), v.at],
    );
  }

  // ---- a collection's values

  /** The collection's row (its readability is CollectionsService's to judge), held when `lock`, or null. */
  collection(em: EntityManager, id: string, lock: boolean): Promise<CollectionEntity | null> {
    return em.findOne(CollectionEntity, {
      where: { id },
      ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
  }

  /** Marks the collection modified (its metadata changed). */
  async touchCollection(em: EntityManager, id: string, at: Date): Promise<void> {
    await em.update(CollectionEntity, { id }, { date_modified: at });
  }

  collectionValues(em: EntityManager, id: string): Promise<CollectionMetadataValueEntity[]> {
    return em.find(CollectionMetadataValueEntity, {
      where: { collection_id: id },
      order: { field_name: 'ASC' },
    });
  }

  async deleteCollectionValues(em: EntityManager, id: string, field: string): Promise<void> {
    await em.delete(CollectionMetadataValueEntity, { collection_id: id, field_name: field });
  }

  /** Sets one field's values on a collection (inserted or replaced). */
  async upsertCollectionValues(
    em: EntityManager,
    v: { id: string; field: string; values: unknown[]; at: Date },
  ): Promise<void> {
    // raw: INSERT … ON CONFLICT (collection_id, field_name) DO UPDATE with a jsonb parameter
    await em.query(
      `INSERT INTO collection_metadata_values (collection_id, field_name, field_values, date_created, date_modified)
       VALUES ($1, $2, $3::jsonb, $4, $4)
       ON CONFLICT (collection_id, field_name)
       DO UPDATE SET field_values = EXCLUDED.field_values, date_created = $4, date_modified = $4`,
      [v.id, v.field, JSON.stringify(v.values), v.at],
    );
  }
}
