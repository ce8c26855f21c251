import { SqlMigration } from '../sql-migration.js';

/** Per-domain PasswordChecks (system_domains.password_checks) and the mailed password-reset links. */
export class PasswordChecks1795264400000 extends SqlMigration {
  name = 'PasswordChecks1795264400000';

  protected readonly upStatements = [
    'ALTER TABLE "system_domains" ADD "password_checks" jsonb',
    `CREATE TABLE "password_resets" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL,
       "secret_sha256" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL,
       "used_at" TIMESTAMP WITH TIME ZONE, "superseded_at" TIMESTAMP WITH TIME ZONE,
       "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
       CONSTRAINT "PK_4816377aa98211c1de34469e742" PRIMARY KEY ("id"))`,
    'CREATE INDEX "ix_password_resets_user" ON "password_resets" ("user_id")',
    'CREATE UNIQUE INDEX "uq_password_resets_secret" ON "password_resets" ("secret_sha256")',
    `ALTER TABLE "password_resets" ADD CONSTRAINT "FK_f7a4c3bc48f24df007936d217be" FOREIGN KEY ("user_id")
       REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
  ];

  protected readonly downStatements = [
    'DROP TABLE "password_resets"',
    'ALTER TABLE "system_domains" DROP COLUMN "password_checks"',
  ];
}
