import { SqlMigration } from '../sql-migration.js';

/**
 * Assets (issue 24): assets and their versions, their entity ACLs, metadata views, categories and the
 * per-version metadata values, and the GIN index over each asset's search document (title and metadata
 * values), which TypeORM cannot declare (the entity names it with synchronize: false).
 */
export class AssetsMetadata1795689010077 extends SqlMigration {
  name = 'AssetsMetadata1795689010077';

  protected readonly upStatements = [
    'CREATE TABLE "assets" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "title" text NOT NULL, "type" text NOT NULL DEFAULT \'ASSET\', "status" text NOT NULL DEFAULT \'ACTIVE\', "analyze_status" text NOT NULL DEFAULT \'N/A\', "archive_status" text NOT NULL DEFAULT \'NOT_ARCHIVED\', "external_id" text, "is_online" boolean NOT NULL DEFAULT true, "media_type" text, "current_version_id" uuid, "created_by_user" uuid, "deleted_by_user" uuid, "date_deleted" TIMESTAMP WITH TIME ZONE, "search_vector" tsvector, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_da96729a8b113377cfb6a62439c" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_assets_domain_created" ON "assets"  ("system_domain_id", "date_created") ',
    'CREATE INDEX "ix_assets_search" ON "assets" USING gin ("search_vector")',
    'CREATE TABLE "asset_versions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "asset_id" uuid NOT NULL, "analyze_status" text NOT NULL DEFAULT \'N/A\', "archive_status" text NOT NULL DEFAULT \'NOT_ARCHIVED\', "status" text NOT NULL DEFAULT \'ACTIVE\', "transcribe_status" text NOT NULL DEFAULT \'N/A\', "is_online" boolean NOT NULL DEFAULT true, "created_by_user" uuid, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cdcef38a89b511b45285ae2b434" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_asset_versions_asset" ON "asset_versions"  ("asset_id", "date_created") ',
    'CREATE TABLE "asset_acls" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "asset_id" uuid NOT NULL, "user_id" uuid, "group_id" uuid, "permissions" text array NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_804afed9e072d6484b325a8433d" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_asset_acls_group" ON "asset_acls"  ("group_id") ',
    'CREATE INDEX "ix_asset_acls_asset" ON "asset_acls"  ("asset_id") ',
    'CREATE INDEX "ix_asset_acls_user" ON "asset_acls"  ("user_id") ',
    'CREATE UNIQUE INDEX "uq_asset_acls_group" ON "asset_acls"  ("asset_id", "group_id") WHERE "group_id" IS NOT NULL',
    'CREATE UNIQUE INDEX "uq_asset_acls_user" ON "asset_acls"  ("asset_id", "user_id") WHERE "user_id" IS NOT NULL',
    'CREATE TABLE "metadata_views" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "name" text NOT NULL, "description" text, "view_fields" jsonb NOT NULL DEFAULT \'[]\', "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_df4ebda1d34b3639aebb4c34d99" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_metadata_views_domain" ON "metadata_views"  ("system_domain_id", "name") ',
    'CREATE TABLE "metadata_categories" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "object_type" text NOT NULL, "name" text NOT NULL, "label" text, "view_ids" uuid array NOT NULL DEFAULT \'{}\', "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_032ae741574c8e2f9c8f4cb6bc6" PRIMARY KEY ("id"))',
    'CREATE UNIQUE INDEX "uq_metadata_categories_name" ON "metadata_categories"  ("system_domain_id", "object_type", "name") ',
    'CREATE TABLE "metadata_values" ("version_id" uuid NOT NULL, "field_name" text NOT NULL, "asset_id" uuid NOT NULL, "field_values" jsonb NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0c7ac227f6b36fa72597e0e4154" PRIMARY KEY ("version_id", "field_name"))',
    'CREATE INDEX "ix_metadata_values_asset" ON "metadata_values"  ("asset_id") ',
    'ALTER TABLE "assets" ADD CONSTRAINT "FK_9d19f04edd5e15c7afa082f1b2a" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "asset_versions" ADD CONSTRAINT "FK_d5d30f3eb3988f2122558fc45ed" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "asset_acls" ADD CONSTRAINT "FK_fbea3a15e0b72919c281a2d3f22" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "asset_acls" ADD CONSTRAINT "FK_e8a43416c2b05674d129f9f537a" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "asset_acls" ADD CONSTRAINT "FK_8981cd51168acaf35b1f8cebfcf" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "metadata_views" ADD CONSTRAINT "FK_47b8d9b33ae974d79fe927da007" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "metadata_categories" ADD CONSTRAINT "FK_6420f59125b669e151878c318ca" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "metadata_values" ADD CONSTRAINT "FK_a9891f8c3aa14e469424a0e477f" FOREIGN KEY ("version_id") REFERENCES "asset_versions"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "metadata_values" ADD CONSTRAINT "FK_c71f09b452cbe2a17531eda72e9" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "metadata_values" DROP CONSTRAINT "FK_c71f09b452cbe2a17531eda72e9"',
    'ALTER TABLE "metadata_values" DROP CONSTRAINT "FK_a9891f8c3aa14e469424a0e477f"',
    'ALTER TABLE "metadata_categories" DROP CONSTRAINT "FK_6420f59125b669e151878c318ca"',
    'ALTER TABLE "metadata_views" DROP CONSTRAINT "FK_47b8d9b33ae974d79fe927da007"',
    'ALTER TABLE "asset_acls" DROP CONSTRAINT "FK_8981cd51168acaf35b1f8cebfcf"',
    'ALTER TABLE "asset_acls" DROP CONSTRAINT "FK_e8a43416c2b05674d129f9f537a"',
    'ALTER TABLE "asset_acls" DROP CONSTRAINT "FK_fbea3a15e0b72919c281a2d3f22"',
    'ALTER TABLE "asset_versions" DROP CONSTRAINT "FK_d5d30f3eb3988f2122558fc45ed"',
    'ALTER TABLE "assets" DROP CONSTRAINT "FK_9d19f04edd5e15c7afa082f1b2a"',
    'DROP INDEX "public"."ix_metadata_values_asset"',
    'DROP TABLE "metadata_values"',
    'DROP INDEX "public"."uq_metadata_categories_name"',
    'DROP TABLE "metadata_categories"',
    'DROP INDEX "public"."ix_metadata_views_domain"',
    'DROP TABLE "metadata_views"',
    'DROP INDEX "public"."uq_asset_acls_user"',
    'DROP INDEX "public"."uq_asset_acls_group"',
    'DROP INDEX "public"."ix_asset_acls_user"',
    'DROP INDEX "public"."ix_asset_acls_group"',
    'DROP INDEX "public"."ix_asset_acls_asset"',
    'DROP TABLE "asset_acls"',
    'DROP INDEX "public"."ix_asset_versions_asset"',
    'DROP TABLE "asset_versions"',
    'DROP INDEX "public"."ix_assets_search"',
    'DROP INDEX "public"."ix_assets_domain_created"',
    'DROP TABLE "assets"',
  ];
}
