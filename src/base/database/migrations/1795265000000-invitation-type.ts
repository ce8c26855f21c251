import { SqlMigration } from '../sql-migration.js';

/** An invitation names the new account's type: a pending invitation holds a seat of the domain's BillingLimits. */
export class InvitationType1795265000000 extends SqlMigration {
  name = 'InvitationType1795265000000';

  protected readonly upStatements = [`ALTER TABLE "invitations" ADD "type" text NOT NULL DEFAULT 'STANDARD'`];

  protected readonly downStatements = ['ALTER TABLE "invitations" DROP COLUMN "type"'];
}
