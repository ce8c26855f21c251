import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mail bodies are sealed at rest and erased after delivery: the body may be null, and delivery is dated.
 * Bodies queued before this version are sealed by MailService at start-up (the key is derived from the
 * service secret, which migrations do not see).
 */
export class MailOutboxSealed1795264000000 implements MigrationInterface {
  name = 'MailOutboxSealed1795264000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "mail_outbox" ALTER COLUMN "body" DROP NOT NULL');
    await queryRunner.query('ALTER TABLE "mail_outbox" ADD "sent_at" TIMESTAMP WITH TIME ZONE');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "mail_outbox" DROP COLUMN "sent_at"');
    await queryRunner.query(`UPDATE "mail_outbox" SET "body" = '' WHERE "body" IS NULL`);
    await queryRunner.query('ALTER TABLE "mail_outbox" ALTER COLUMN "body" SET NOT NULL');
  }
}
