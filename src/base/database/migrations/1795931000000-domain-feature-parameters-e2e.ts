import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A domain's feature parameters (the published POST …/features/ body keeps them) and the end-to-end test
 * flag that DELETE …/e2e/ requires.
 */
export class DomainFeatureParametersE2e1795931000000 implements MigrationInterface {
  name = 'DomainFeatureParametersE2e1795931000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "system_domains" ADD "feature_parameters" jsonb NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query('ALTER TABLE "system_domains" ADD "is_e2e" boolean NOT NULL DEFAULT false');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "system_domains" DROP COLUMN "is_e2e"');
    await queryRunner.query('ALTER TABLE "system_domains" DROP COLUMN "feature_parameters"');
  }
}
