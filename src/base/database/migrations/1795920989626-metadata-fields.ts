import { SqlMigration } from '../sql-migration.js';

/**
 * The metadata field registry (issue 38 item 5): each domain's fields (MetadataFieldSchema), which views now
 * name instead of defining inline, and the metadata values of collections. Existing installations keep their
 * views: every field a view defined, and every field an asset has values of, is registered (type `string`,
 * several values allowed, the view's label and flags), and the views keep only the fields' names. `down`
 * puts the registered definitions back inline.
 */
export class MetadataFields1795920989626 extends SqlMigration {
  name = 'MetadataFields1795920989626';

  protected readonly upStatements = [
    'CREATE TABLE "metadata_fields" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "name" text NOT NULL, "label" text NOT NULL, "field_type" text NOT NULL, "description" text, "external_id" text, "auto_set" boolean NOT NULL DEFAULT false, "hide_if_not_set" boolean NOT NULL DEFAULT false, "is_block_field" boolean NOT NULL DEFAULT false, "is_warning_field" boolean NOT NULL DEFAULT false, "mapped_field_name" text, "max_value" double precision, "min_value" double precision, "multi" boolean NOT NULL DEFAULT false, "options" jsonb NOT NULL DEFAULT \'[]\', "read_only" boolean NOT NULL DEFAULT false, "representative" boolean NOT NULL DEFAULT false, "required" boolean NOT NULL DEFAULT false, "sortable" boolean NOT NULL DEFAULT false, "source_url" text, "use_as_facet" boolean NOT NULL DEFAULT false, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_783e86c671ad7ef8cc6cf1fd3db" PRIMARY KEY ("id"))',
    'CREATE UNIQUE INDEX "uq_metadata_fields_name" ON "metadata_fields"  ("system_domain_id", "name") ',
    'CREATE TABLE "collection_metadata_values" ("collection_id" uuid NOT NULL, "field_name" text NOT NULL, "field_values" jsonb NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9756fa609b327b9e81ebd3568a2" PRIMARY KEY ("collection_id", "field_name"))',
    'ALTER TABLE "metadata_fields" ADD CONSTRAINT "FK_3df5ca022bc94263fa7510e5f1a" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "collection_metadata_values" ADD CONSTRAINT "FK_60234ff15359f70549860380e63" FOREIGN KEY ("collection_id") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    // the fields the views defined inline (the most recently changed view's definition of a name wins)
    `
      INSERT INTO metadata_fields (system_domain_id, name, label, field_type, multi, auto_set, hide_if_not_set,
                                   mapped_field_name, read_only, required, source_url)
      SELECT DISTINCT ON (v.system_domain_id, f ->> 'name')
             v.system_domain_id, f ->> 'name', coalesce(f ->> 'label', f ->> 'name'), 'string', true,
             coalesce((f ->> 'auto_set')::boolean, false), coalesce((f ->> 'hide_if_not_set')::boolean, false),
             f ->> 'mapped_field_name', coalesce((f ->> 'read_only')::boolean, false),
             coalesce((f ->> 'required')::boolean, false), f ->> 'source_url'
        FROM metadata_views v CROSS JOIN LATERAL jsonb_array_elements(v.view_fields) AS e(f)
       WHERE jsonb_typeof(f) = 'object' AND f ->> 'name' IS NOT NULL
       ORDER BY v.system_domain_id, f ->> 'name', v.date_modified DESC`,
    // the fields assets have values of that no view defines any more
    `
      INSERT INTO metadata_fields (system_domain_id, name, label, field_type, multi)
      SELECT DISTINCT a.system_domain_id, mv.field_name, mv.field_name, 'string', true
        FROM metadata_values mv JOIN assets a ON a.id = mv.asset_id
      ON CONFLICT (system_domain_id, name) DO NOTHING`,
    `
      UPDATE metadata_views SET view_fields = coalesce((
        SELECT jsonb_agg(jsonb_build_object('name', f ->> 'name') ORDER BY n)
          FROM jsonb_array_elements(view_fields) WITH ORDINALITY AS e(f, n)
         WHERE jsonb_typeof(f) = 'object' AND f ->> 'name' IS NOT NULL), '[]'::jsonb)`,
  ];

  protected readonly downStatements = [
    `
      UPDATE metadata_views v SET view_fields = coalesce((
        SELECT jsonb_agg(jsonb_build_object('name', mf.name, 'label', mf.label, 'auto_set', mf.auto_set,
                 'hide_if_not_set', mf.hide_if_not_set, 'mapped_field_name', mf.mapped_field_name,
                 'read_only', mf.read_only, 'required', mf.required, 'source_url', mf.source_url) ORDER BY n)
          FROM jsonb_array_elements(v.view_fields) WITH ORDINALITY AS e(f, n)
          JOIN metadata_fields mf ON mf.system_domain_id = v.system_domain_id AND mf.name = f ->> 'name'), '[]'::jsonb)`,
    'ALTER TABLE "collection_metadata_values" DROP CONSTRAINT "FK_60234ff15359f70549860380e63"',
    'ALTER TABLE "metadata_fields" DROP CONSTRAINT "FK_3df5ca022bc94263fa7510e5f1a"',
    'DROP TABLE "collection_metadata_values"',
    'DROP INDEX "public"."uq_metadata_fields_name"',
    'DROP TABLE "metadata_fields"',
  ];
}
