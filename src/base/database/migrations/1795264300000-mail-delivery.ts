import { SqlMigration } from '../sql-migration.js';

/**
 * The mail delivery worker's queue state on `mail_outbox` (attempts, the next attempt, the lease, the last
 * error), and the single-use sign-in links of email login (only the SHA-256 of each secret is kept).
 */
export class MailDelivery1795264300000 extends SqlMigration {
  name = 'MailDelivery1795264300000';

  protected readonly upStatements = [
    'ALTER TABLE "mail_outbox" ADD "attempts" integer NOT NULL DEFAULT 0',
    'ALTER TABLE "mail_outbox" ADD "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
    'ALTER TABLE "mail_outbox" ADD "locked_until" TIMESTAMP WITH TIME ZONE',
    'ALTER TABLE "mail_outbox" ADD "last_error" text',
    'ALTER TABLE "mail_outbox" ADD "html_body" text',
    'CREATE INDEX "ix_mail_outbox_due" ON "mail_outbox" ("status", "next_attempt_at") ',
    'CREATE TABLE "email_login_links" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "secret_sha256" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_email_login_links" PRIMARY KEY ("id"))',
    'CREATE UNIQUE INDEX "uq_email_login_links_secret" ON "email_login_links" ("secret_sha256") ',
    'CREATE INDEX "ix_email_login_links_user" ON "email_login_links" ("user_id") ',
    'ALTER TABLE "email_login_links" ADD CONSTRAINT "FK_email_login_links_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "email_login_links" DROP CONSTRAINT "FK_email_login_links_user"',
    'DROP INDEX "public"."ix_email_login_links_user"',
    'DROP INDEX "public"."uq_email_login_links_secret"',
    'DROP TABLE "email_login_links"',
    'DROP INDEX "public"."ix_mail_outbox_due"',
    'ALTER TABLE "mail_outbox" DROP COLUMN "html_body"',
    'ALTER TABLE "mail_outbox" DROP COLUMN "last_error"',
    'ALTER TABLE "mail_outbox" DROP COLUMN "locked_until"',
    'ALTER TABLE "mail_outbox" DROP COLUMN "next_attempt_at"',
    'ALTER TABLE "mail_outbox" DROP COLUMN "attempts"',
  ];
}
