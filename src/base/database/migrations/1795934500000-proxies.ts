import { SqlMigration } from '../sql-migration.js';

/**
 * Proxies of assets (issue 38 item 3): each one's description and the file of the asset that holds its bytes
 * (the files' resumable upload and signed downloads, unchanged).
 */
export class Proxies1795934500000 extends SqlMigration {
  name = 'Proxies1795934500000';

  protected readonly upStatements = [
    'CREATE TABLE "proxies" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "asset_id" uuid NOT NULL, "file_id" uuid NOT NULL, "version_id" uuid, "name" text NOT NULL, "filename" text NOT NULL, "format" text, "codec" text, "audio_bitrate" integer, "bit_rate" integer, "frame_rate" text, "is_drop_frame" boolean NOT NULL DEFAULT false, "is_public" boolean NOT NULL DEFAULT false, "resolution" jsonb, "rotation" integer, "start_time_code" text, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c66b4253ef600a915c610015093" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_proxies_asset" ON "proxies"  ("asset_id", "version_id") ',
    'CREATE UNIQUE INDEX "ix_proxies_file" ON "proxies"  ("file_id") ',
    'ALTER TABLE "proxies" ADD CONSTRAINT "FK_2364c3aa504b6f8cb9c41eb877f" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "proxies" ADD CONSTRAINT "FK_0015f296198d3a11b1c4215dbfc" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "proxies" DROP CONSTRAINT "FK_0015f296198d3a11b1c4215dbfc"',
    'ALTER TABLE "proxies" DROP CONSTRAINT "FK_2364c3aa504b6f8cb9c41eb877f"',
    'DROP INDEX "public"."ix_proxies_file"',
    'DROP INDEX "public"."ix_proxies_asset"',
    'DROP TABLE "proxies"',
  ];
}
