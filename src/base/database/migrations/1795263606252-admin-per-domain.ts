import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Administrator rights move from the user to each membership. Data step: an administrator keeps their
 * rights in their home domain only (before, the flag wrongly applied in every domain they had joined).
 */
export class AdminPerDomain1795263606252 implements MigrationInterface {
  name = 'AdminPerDomain1795263606252';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "user_system_domains" ADD "is_admin" boolean NOT NULL DEFAULT false',
    );
    await queryRunner.query(
      `UPDATE "user_system_domains" m SET "is_admin" = true FROM "users" u
       WHERE u."id" = m."user_id" AND u."is_admin" AND u."system_domain_id" = m."system_domain_id"`,
    );
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "is_admin"');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" ADD "is_admin" boolean NOT NULL DEFAULT false');
    await queryRunner.query(
      `UPDATE "users" u SET "is_admin" = true FROM "user_system_domains" m
       WHERE u."id" = m."user_id" AND m."is_admin" AND u."system_domain_id" = m."system_domain_id"`,
    );
    await queryRunner.query('ALTER TABLE "user_system_domains" DROP COLUMN "is_admin"');
  }
}
