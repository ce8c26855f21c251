import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A member's primary group in a domain (the published User's primary_group; set by an invitation link). */
export class PrimaryGroup1795700630000 implements MigrationInterface {
  name = 'PrimaryGroup1795700630000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "user_system_domains" ADD "primary_group_id" uuid');
    await queryRunner.query(
      'ALTER TABLE "user_system_domains" ADD CONSTRAINT "FK_user_system_domains_primary_group" FOREIGN KEY ("primary_group_id") REFERENCES "groups"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "user_system_domains" DROP CONSTRAINT "FK_user_system_domains_primary_group"',
    );
    await queryRunner.query('ALTER TABLE "user_system_domains" DROP COLUMN "primary_group_id"');
  }
}
