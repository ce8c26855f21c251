import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Users carry the published platform's `type` (BROWSE_API_ONLY, BROWSE_ONLY, POWER, STANDARD). */
export class UserType1795264100000 implements MigrationInterface {
  name = 'UserType1795264100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "type" text NOT NULL DEFAULT 'STANDARD'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "type"');
  }
}
