import { SqlMigration } from '../sql-migration.js';

/**
 * Files and jobs (issue 20): storages (the built-in ones are created at start, not here), formats, file sets,
 * files with their resumable upload state, keyframes, the files worker's task queue, and jobs.
 */
export class FilesJobs1795700100000 extends SqlMigration {
  name = 'FilesJobs1795700100000';

  protected readonly upStatements = [
    'CREATE TABLE "formats" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "asset_id" uuid NOT NULL, "version_id" uuid, "name" text NOT NULL, "user_id" uuid, "metadata" jsonb NOT NULL DEFAULT \'[]\', "storage_methods" text array NOT NULL DEFAULT \'{}\', "status" text NOT NULL DEFAULT \'ACTIVE\', "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e99e1793fec9a30a4b463b46869" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_formats_asset" ON "formats"  ("asset_id") ',
    'CREATE TABLE "file_sets" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "asset_id" uuid NOT NULL, "version_id" uuid, "format_id" uuid, "storage_id" uuid, "base_dir" text NOT NULL DEFAULT \'\', "name" text NOT NULL, "component_ids" text array NOT NULL DEFAULT \'{}\', "status" text NOT NULL DEFAULT \'ACTIVE\', "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_28a75cbb7063d570123d9e65081" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_file_sets_asset" ON "file_sets"  ("asset_id") ',
    'CREATE TABLE "files" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "asset_id" uuid NOT NULL, "version_id" uuid, "format_id" uuid, "file_set_id" uuid, "storage_id" uuid NOT NULL, "object_key" text NOT NULL, "original_name" text NOT NULL, "directory_path" text NOT NULL DEFAULT \'\', "type" text NOT NULL DEFAULT \'FILE\', "status" text NOT NULL DEFAULT \'OPEN\', "size" bigint, "received" bigint NOT NULL DEFAULT \'0\', "progress_processed" integer NOT NULL DEFAULT \'0\', "checksum" text, "content_type" text, "metadata" jsonb NOT NULL DEFAULT \'{}\', "upload_lock_until" TIMESTAMP WITH TIME ZONE, "multipart_upload_id" text, "multipart_parts" jsonb NOT NULL DEFAULT \'[]\', "created_by_user" uuid, "file_date_created" TIMESTAMP WITH TIME ZONE, "file_date_modified" TIMESTAMP WITH TIME ZONE, "date_deleted" TIMESTAMP WITH TIME ZONE, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6c16b9093a142e0e7613b04a3d9" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_files_asset" ON "files"  ("asset_id") ',
    'CREATE TABLE "keyframes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "asset_id" uuid NOT NULL, "file_id" uuid NOT NULL, "job_id" uuid NOT NULL, "storage_id" uuid NOT NULL, "object_key" text NOT NULL, "position" integer NOT NULL, "size" bigint NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0763b659050cd32057870ea2713" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_keyframes_asset" ON "keyframes"  ("asset_id", "position") ',
    'CREATE TABLE "file_tasks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "kind" text NOT NULL, "file_id" uuid, "job_id" uuid, "storage_id" uuid NOT NULL, "object_key" text NOT NULL, "multipart_upload_id" text, "status" text NOT NULL DEFAULT \'PENDING\', "attempts" integer NOT NULL DEFAULT \'0\', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locked_until" TIMESTAMP WITH TIME ZONE, "last_error" text, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6223537d0ae53aec7f0946deb54" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_file_tasks_due" ON "file_tasks"  ("status", "next_attempt_at") ',
    'CREATE TABLE "storages" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid, "name" text NOT NULL, "method" text NOT NULL, "purpose" text NOT NULL, "status" text NOT NULL DEFAULT \'ACTIVE\', "scanner_status" text NOT NULL DEFAULT \'INACTIVE\', "status_message" text, "settings" jsonb NOT NULL DEFAULT \'{}\', "is_default" boolean NOT NULL DEFAULT false, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_2f2d2fae6dc214f7f3ec52189ce" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_storages_domain" ON "storages"  ("system_domain_id") ',
    'CREATE UNIQUE INDEX "uq_storages_builtin_default" ON "storages"  ("purpose") WHERE system_domain_id IS NULL AND is_default',
    'CREATE TABLE "jobs" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "created_by_user" uuid, "object_type" text, "object_id" uuid, "type" text NOT NULL, "status" text NOT NULL DEFAULT \'READY\', "title" text NOT NULL DEFAULT \'\', "progress_processed" bigint NOT NULL DEFAULT \'0\', "progress_total" bigint, "priority" integer NOT NULL DEFAULT \'0\', "message" text, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_cf0a6c42b72fcc7f7c237def345" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_jobs_domain_created" ON "jobs"  ("system_domain_id", "date_created") ',
    'ALTER TABLE "formats" ADD CONSTRAINT "FK_a7a8bddaccf5f9eaa574ddcbb54" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "file_sets" ADD CONSTRAINT "FK_9e6b20d233c9f43aad95de4da72" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "files" ADD CONSTRAINT "FK_ecf913949b2d241a19fe504c7fe" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "keyframes" ADD CONSTRAINT "FK_ecea035bdd65ce6e546efea5df9" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "storages" ADD CONSTRAINT "FK_8a4ac20e05add9fe91f627b43a4" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "jobs" ADD CONSTRAINT "FK_98cd81b4c6b3eab3b8c25f97b4f" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "jobs" DROP CONSTRAINT "FK_98cd81b4c6b3eab3b8c25f97b4f"',
    'ALTER TABLE "storages" DROP CONSTRAINT "FK_8a4ac20e05add9fe91f627b43a4"',
    'ALTER TABLE "keyframes" DROP CONSTRAINT "FK_ecea035bdd65ce6e546efea5df9"',
    'ALTER TABLE "files" DROP CONSTRAINT "FK_ecf913949b2d241a19fe504c7fe"',
    'ALTER TABLE "file_sets" DROP CONSTRAINT "FK_9e6b20d233c9f43aad95de4da72"',
    'ALTER TABLE "formats" DROP CONSTRAINT "FK_a7a8bddaccf5f9eaa574ddcbb54"',
    'DROP INDEX "public"."ix_jobs_domain_created"',
    'DROP TABLE "jobs"',
    'DROP INDEX "public"."uq_storages_builtin_default"',
    'DROP INDEX "public"."ix_storages_domain"',
    'DROP TABLE "storages"',
    'DROP INDEX "public"."ix_file_tasks_due"',
    'DROP TABLE "file_tasks"',
    'DROP INDEX "public"."ix_keyframes_asset"',
    'DROP TABLE "keyframes"',
    'DROP INDEX "public"."ix_files_asset"',
    'DROP TABLE "files"',
    'DROP INDEX "public"."ix_file_sets_asset"',
    'DROP TABLE "file_sets"',
    'DROP INDEX "public"."ix_formats_asset"',
    'DROP TABLE "formats"',
  ];
}
