import { SqlMigration } from '../sql-migration.js';

/**
 * Mail bodies are sealed at rest and erased after delivery: the body may be null, and delivery is dated.
 * Bodies queued before this version are sealed by MailService at start-up (the key is derived from the
 * service secret, which migrations do not see).
 */
export class MailOutboxSealed1795264000000 extends SqlMigration {
  name = 'MailOutboxSealed1795264000000';

  protected readonly upStatements = [
    'ALTER TABLE "mail_outbox" ALTER COLUMN "body" DROP NOT NULL',
    'ALTER TABLE "mail_outbox" ADD "sent_at" TIMESTAMP WITH TIME ZONE',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "mail_outbox" DROP COLUMN "sent_at"',
    `UPDATE "mail_outbox" SET "body" = '' WHERE "body" IS NULL`,
    'ALTER TABLE "mail_outbox" ALTER COLUMN "body" SET NOT NULL',
  ];
}
