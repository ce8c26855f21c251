import { SqlMigration } from '../sql-migration.js';

/**
 * A token remembers when its person last proved who they are (the sign-in it comes from, through renewals),
 * so changes to the account's factors can ask for a recent sign-in. Existing tokens get none: their next
 * account change asks for a fresh sign-in.
 */
export class TokenAuthTime1795266000000 extends SqlMigration {
  name = 'TokenAuthTime1795266000000';

  protected readonly upStatements = ['ALTER TABLE "tokens" ADD "auth_time" TIMESTAMP WITH TIME ZONE'];

  protected readonly downStatements = ['ALTER TABLE "tokens" DROP COLUMN "auth_time"'];
}
