import { SqlMigration } from '../sql-migration.js';

/**
 * A domain's feature parameters (the published POST …/features/ body keeps them) and the end-to-end test
 * flag that DELETE …/e2e/ requires.
 */
export class DomainFeatureParametersE2e1795931000000 extends SqlMigration {
  name = 'DomainFeatureParametersE2e1795931000000';

  protected readonly upStatements = [
    `ALTER TABLE "system_domains" ADD "feature_parameters" jsonb NOT NULL DEFAULT '{}'`,
    'ALTER TABLE "system_domains" ADD "is_e2e" boolean NOT NULL DEFAULT false',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "system_domains" DROP COLUMN "is_e2e"',
    'ALTER TABLE "system_domains" DROP COLUMN "feature_parameters"',
  ];
}
