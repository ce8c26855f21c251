import { SqlMigration } from '../sql-migration.js';

/**
 * Guessing defence (issue 10 item 6): per account and factor, the attempts not yet proved right and the
 * temporary lock they caused. Rows only for real accounts; they go with the user.
 */
export class GuessingDefence1795264500000 extends SqlMigration {
  name = 'GuessingDefence1795264500000';

  protected readonly upStatements = [
    'CREATE TABLE "login_attempts" ("user_id" uuid NOT NULL, "factor" text NOT NULL, "failures" integer NOT NULL DEFAULT \'0\', "locked_until" TIMESTAMP WITH TIME ZONE, "last_failure_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_67c31adb9719db86e301c313a45" PRIMARY KEY ("user_id", "factor"))',
    'ALTER TABLE "login_attempts" ADD CONSTRAINT "FK_5f88175f39e2b2ebf9e2295a9fd" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "login_attempts" DROP CONSTRAINT "FK_5f88175f39e2b2ebf9e2295a9fd"',
    'DROP TABLE "login_attempts"',
  ];
}
