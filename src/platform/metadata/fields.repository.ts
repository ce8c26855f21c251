import { Injectable } from '@nestjs/common';
import { type EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import { FeatureRepository } from '../../base/database/feature-repository.js';
import { escapeLike } from '../../base/database/sql-helpers.js';
import { MetadataFieldEntity } from '../../base/model/metadata.entity.js';
import { insertRow } from '../../base/database/insert-row.js';

/**
 * The field registry's door to the database: a domain's fields, the views that name one, and the values
 * kept under a field's name (asset versions' and collections'). Methods that take part in a change take the
 * change's EntityManager (`transaction(work)` opens it).
 */
@Injectable()
export class FieldsRepository extends FeatureRepository {
  /** The fields of the domain whose name or label contains `text` (all without it), for pageList. */
  fieldsQuery(systemDomainId: string, text: string | undefined): SelectQueryBuilder<MetadataFieldEntity> {
    const qb = this.ds
      .getRepository(MetadataFieldEntity)
      .createQueryBuilder('f')
      .where('f.system_domain_id = :domainId', { domainId: systemDomainId });
    if (text) qb.andWhere('(f.name ILIKE :q OR f.label ILIKE :q)', { q: `%${escapeLike(text)}%` });
    return qb;
  }

  /** A field of the domain, or null; its row held against change (`update`) or removal (`share`). */
  field(
    em: EntityManager,
    systemDomainId: string,
    name: string,
    lock?: 'pessimistic_write' | 'pessimistic_read',
  ): Promise<MetadataFieldEntity | null> {
    return em.findOne(MetadataFieldEntity, {
      where: { system_domain_id: systemDomainId, name },
      ...(lock ? { lock: { mode: lock } } : {}),
    });
  }

  /** The domain's fields of these names (those that exist), held against removal when `share`. */
  fieldsNamed(
    em: EntityManager,
    systemDomainId: string,
    names: string[],
    share = false,
  ): Promise<MetadataFieldEntity[]> {
    if (names.length === 0) return Promise.resolve([]);
    return em.find(MetadataFieldEntity, {
      where: { system_domain_id: systemDomainId, name: In(names) },
      ...(share ? { lock: { mode: 'pessimistic_read' as const } } : {}),
    });
  }

  /** Inserts a field and answers it as stored (a unique violation is the caller's to map). */
  async insertField(em: EntityManager, fields: Partial<MetadataFieldEntity>): Promise<MetadataFieldEntity> {
    const field = await insertRow(em, MetadataFieldEntity, fields);
    return em.findOneByOrFail(MetadataFieldEntity, { id: field.id });
  }

  /** Registers the fields not registered yet (a concurrent registration of a name wins). */
  async insertMissing(em: EntityManager, rows: Partial<MetadataFieldEntity>[]): Promise<void> {
    if (rows.length === 0) return;
    await em.createQueryBuilder().insert().into(MetadataFieldEntity).values(rows).orIgnore().execute();
  }

  async updateField(em: EntityManager, id: string, changes: Partial<MetadataFieldEntity>): Promise<void> {
    await em.update(MetadataFieldEntity, { id }, changes);
  }

  async deleteField(em: EntityManager, id: string): Promise<void> {
    await em.delete(MetadataFieldEntity, { id });
  }

  /** The views of the domain that name the field (their names, at most 20). */
  async viewsUsing(em: EntityManager, systemDomainId: string, name: string): Promise<string[]> {
    // raw: jsonb containment on view_fields
    const rows: { name: string }[] = await em.query(
      'SELECT name FROM metadata_views WHERE system_domain_id = $1 AND view_fields @> $2::jsonb ORDER BY name LIMIT 20',
      [systemDomainId, JSON.stringify([{ name }])],
    );
    return rows.map((r) => r.name);
  }

  /** Whether any asset version or collection of the domain has values of the field. */
  async hasValues(em: EntityManager, systemDomainId: string, name: string): Promise<boolean> {
    // raw: EXISTS over the two value tables, each joined to its object's domain
    const rows: unknown[] = await em.query(
      `SELECT 1 WHERE EXISTS (SELECT 1 FROM metadata_values mv JOIN assets a ON a.id = mv.asset_id
                               WHERE a.system_domain_id = $1 AND mv.field_name = $2)
                   OR EXISTS (SELECT 1 FROM collection_metadata_values cv JOIN collections c ON c.id = cv.collection_id
                               WHERE c.system_domain_id = $1 AND cv.field_name = $2)`,
      [systemDomainId, name],
    );
    return rows.length > 0;
  }

  /** Deletes the field's values on every object of the domain; answers the assets and collections whose values went. */
  async deleteValues(
    em: EntityManager,
    systemDomainId: string,
    name: string,
  ): Promise<{ assets: string[]; collections: string[] }> {
    // raw: DELETE … USING the object's table for its domain, RETURNING the assets to re-index
    const [rows] = (await em.query(
      `DELETE FROM metadata_values mv USING assets a
        WHERE a.id = mv.asset_id AND a.system_domain_id = $1 AND mv.field_name = $2
       RETURNING mv.asset_id`,
      [systemDomainId, name],
    )) as [{ asset_id: string }[], number];
    const [gone] = (await em.query(
      `DELETE FROM collection_metadata_values cv USING collections c
        WHERE c.id = cv.collection_id AND c.system_domain_id = $1 AND cv.field_name = $2
       RETURNING cv.collection_id`,
      [systemDomainId, name],
    )) as [{ collection_id: string }[], number];
    return {
      assets: [...new Set(rows.map((r) => r.asset_id))],
      collections: gone.map((r) => r.collection_id),
    };
  }
}
