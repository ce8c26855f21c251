import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Proxies of assets (issue 38 item 3): each one's description and the file of the asset that holds its bytes
 * (the files' resumable upload and signed downloads, unchanged).
 */
export class Proxies1795934500000 implements MigrationInterface {
  name = 'Proxies1795934500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "proxies" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "asset_id" uuid NOT NULL, "file_id" uuid NOT NULL, "version_id" uuid, "name" text NOT NULL, "filename" text NOT NULL, "format" text, "codec" text, "audio_bitrate" integer, "bit_rate" integer, "frame_rate" text, "is_drop_frame" boolean NOT NULL DEFAULT false, "is_public" boolean NOT NULL DEFAULT false, "resolution" jsonb, "rotation" integer, "start_time_code" text, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c66b4253ef600a915c610015093" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_proxies_asset" ON "proxies"  ("asset_id", "version_id") ');
    await queryRunner.query('CREATE UNIQUE INDEX "ix_proxies_file" ON "proxies"  ("file_id") ');
    await queryRunner.query(
      'ALTER TABLE "proxies" ADD CONSTRAINT "FK_2364c3aa504b6f8cb9c41eb877f" FOREIGN KEY ("asset_id") REFERENCES "assets"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "proxies" ADD CONSTRAINT "FK_0015f296198d3a11b1c4215dbfc" FOREIGN KEY ("file_id") REFERENCES "files"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "proxies" DROP CONSTRAINT "FK_0015f296198d3a11b1c4215dbfc"');
    await queryRunner.query('ALTER TABLE "proxies" DROP CONSTRAINT "FK_2364c3aa504b6f8cb9c41eb877f"');
    await queryRunner.query('DROP INDEX "public"."ix_proxies_file"');
    await queryRunner.query('DROP INDEX "public"."ix_proxies_asset"');
    await queryRunner.query('DROP TABLE "proxies"');
  }
}
