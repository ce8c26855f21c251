import { SqlMigration } from '../sql-migration.js';

/** Users carry the published platform's `type` (BROWSE_API_ONLY, BROWSE_ONLY, POWER, STANDARD). */
export class UserType1795264100000 extends SqlMigration {
  name = 'UserType1795264100000';

  protected readonly upStatements = [`ALTER TABLE "users" ADD "type" text NOT NULL DEFAULT 'STANDARD'`];

  protected readonly downStatements = ['ALTER TABLE "users" DROP COLUMN "type"'];
}
