import { SqlMigration } from '../sql-migration.js';

/**
 * Keyframes as published (issue 38 item 3): each image's pixels (KeyframeSchema's `resolution`), read from
 * its JPEG header when the files worker stores it; null for the images stored before.
 */
export class KeyframeResolution1795932000000 extends SqlMigration {
  name = 'KeyframeResolution1795932000000';

  protected readonly upStatements = ['ALTER TABLE "keyframes" ADD "width" integer, ADD "height" integer'];

  protected readonly downStatements = ['ALTER TABLE "keyframes" DROP COLUMN "height", DROP COLUMN "width"'];
}
