import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The mail delivery worker's queue state on `mail_outbox` (attempts, the next attempt, the lease, the last
 * error), and the single-use sign-in links of email login (only the SHA-256 of each secret is kept).
 */
export class MailDelivery1795264300000 implements MigrationInterface {
  name = 'MailDelivery1795264300000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "mail_outbox" ADD "attempts" integer NOT NULL DEFAULT 0');
    await queryRunner.query(
      'ALTER TABLE "mail_outbox" ADD "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()',
    );
    await queryRunner.query('ALTER TABLE "mail_outbox" ADD "locked_until" TIMESTAMP WITH TIME ZONE');
    await queryRunner.query('ALTER TABLE "mail_outbox" ADD "last_error" text');
    await queryRunner.query('ALTER TABLE "mail_outbox" ADD "html_body" text');
    await queryRunner.query(
      'CREATE INDEX "ix_mail_outbox_due" ON "mail_outbox" ("status", "next_attempt_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "email_login_links" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "secret_sha256" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_email_login_links" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_email_login_links_secret" ON "email_login_links" ("secret_sha256") ',
    );
    await queryRunner.query('CREATE INDEX "ix_email_login_links_user" ON "email_login_links" ("user_id") ');
    await queryRunner.query(
      'ALTER TABLE "email_login_links" ADD CONSTRAINT "FK_email_login_links_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "email_login_links" DROP CONSTRAINT "FK_email_login_links_user"');
    await queryRunner.query('DROP INDEX "public"."ix_email_login_links_user"');
    await queryRunner.query('DROP INDEX "public"."uq_email_login_links_secret"');
    await queryRunner.query('DROP TABLE "email_login_links"');
    await queryRunner.query('DROP INDEX "public"."ix_mail_outbox_due"');
    await queryRunner.query('ALTER TABLE "mail_outbox" DROP COLUMN "html_body"');
    await queryRunner.query('ALTER TABLE "mail_outbox" DROP COLUMN "last_error"');
    await queryRunner.query('ALTER TABLE "mail_outbox" DROP COLUMN "locked_until"');
    await queryRunner.query('ALTER TABLE "mail_outbox" DROP COLUMN "next_attempt_at"');
    await queryRunner.query('ALTER TABLE "mail_outbox" DROP COLUMN "attempts"');
  }
}
