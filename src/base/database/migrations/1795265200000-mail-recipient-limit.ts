import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Each mail records its kind, so link mails of one kind to one recipient can be counted (MAIL_RECIPIENT_LIMIT). */
export class MailRecipientLimit1795265200000 implements MigrationInterface {
  name = 'MailRecipientLimit1795265200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "mail_outbox" ADD "kind" text');
    await queryRunner.query(
      'CREATE INDEX "ix_mail_outbox_recipient" ON "mail_outbox" ("to_address", "kind", "date_created") ',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."ix_mail_outbox_recipient"');
    await queryRunner.query('ALTER TABLE "mail_outbox" DROP COLUMN "kind"');
  }
}
