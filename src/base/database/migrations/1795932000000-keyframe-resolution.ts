import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Keyframes as published (issue 38 item 3): each image's pixels (KeyframeSchema's `resolution`), read from
 * its JPEG header when the files worker stores it; null for the images stored before.
 */
export class KeyframeResolution1795932000000 implements MigrationInterface {
  name = 'KeyframeResolution1795932000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "keyframes" ADD "width" integer, ADD "height" integer');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "keyframes" DROP COLUMN "height", DROP COLUMN "width"');
  }
}
