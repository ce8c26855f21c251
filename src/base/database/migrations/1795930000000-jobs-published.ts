import { SqlMigration } from '../sql-migration.js';

/**
 * Jobs as published (issue 38 item 4): the JobSchema fields (custom_type, error_message, metadata,
 * job_context, action_context, related_objects, parent_id, started_at, completed_at), and the published type
 * list: the three types of ours it lacks become their published names (TRANSCRIBE → TRANSCRIPTION,
 * PROXY → TRANSCODE, IMPORT → CUSTOM with custom_type IMPORT).
 */
export class JobsPublished1795930000000 extends SqlMigration {
  name = 'JobsPublished1795930000000';

  protected readonly upStatements = [
    `ALTER TABLE "jobs" ADD "custom_type" text, ADD "error_message" text, ADD "metadata" jsonb NOT NULL DEFAULT '{}', ADD "job_context" jsonb NOT NULL DEFAULT '{}', ADD "action_context" jsonb NOT NULL DEFAULT '{}', ADD "related_objects" jsonb NOT NULL DEFAULT '[]', ADD "parent_id" uuid, ADD "started_at" TIMESTAMP WITH TIME ZONE, ADD "completed_at" TIMESTAMP WITH TIME ZONE`,
    'CREATE INDEX "ix_jobs_parent" ON "jobs"  ("parent_id") ',
    'ALTER TABLE "jobs" ADD CONSTRAINT "FK_03c46c49f31cc53ca9aca605bcf" FOREIGN KEY ("parent_id") REFERENCES "jobs"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    `UPDATE "jobs" SET "type" = 'TRANSCRIPTION' WHERE "type" = 'TRANSCRIBE'`,
    `UPDATE "jobs" SET "type" = 'TRANSCODE' WHERE "type" = 'PROXY'`,
    `UPDATE "jobs" SET "type" = 'CUSTOM', "custom_type" = 'IMPORT' WHERE "type" = 'IMPORT'`,
  ];

  protected readonly downStatements = [
    `UPDATE "jobs" SET "type" = 'IMPORT' WHERE "type" = 'CUSTOM' AND "custom_type" = 'IMPORT'`,
    `UPDATE "jobs" SET "type" = 'TRANSCRIBE' WHERE "type" = 'TRANSCRIPTION'`,
    'ALTER TABLE "jobs" DROP CONSTRAINT "FK_03c46c49f31cc53ca9aca605bcf"',
    'DROP INDEX "public"."ix_jobs_parent"',
    'ALTER TABLE "jobs" DROP COLUMN "completed_at", DROP COLUMN "started_at", DROP COLUMN "parent_id", DROP COLUMN "related_objects", DROP COLUMN "action_context", DROP COLUMN "job_context", DROP COLUMN "metadata", DROP COLUMN "error_message", DROP COLUMN "custom_type"',
  ];
}
