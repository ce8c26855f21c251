import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/** The metadata statements that are not the query builder's (array and jsonb upserts). */
@Injectable()
export class MetadataRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Drops a view from every category of the domain that names it. */
  async dropViewFromCategories(em: EntityManager, viewId: string, systemDomainId: string): Promise<void> {
    // raw: array_remove on a uuid[] column, matched with = ANY(…)
    await em.query(
      'UPDATE metadata_categories SET view_ids = array_remove(view_ids, $1::uuid) WHERE system_domain_id = $2 AND $1::uuid = ANY(view_ids)',
      [viewId, systemDomainId],
    );
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
}
