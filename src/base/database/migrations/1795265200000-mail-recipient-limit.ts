import { SqlMigration } from '../sql-migration.js';

/** Each mail records its kind, so link mails of one kind to one recipient can be counted (MAIL_RECIPIENT_LIMIT). */
export class MailRecipientLimit1795265200000 extends SqlMigration {
  name = 'MailRecipientLimit1795265200000';

  protected readonly upStatements = [
    'ALTER TABLE "mail_outbox" ADD "kind" text',
    'CREATE INDEX "ix_mail_outbox_recipient" ON "mail_outbox" ("to_address", "kind", "date_created") ',
  ];

  protected readonly downStatements = [
    'DROP INDEX "public"."ix_mail_outbox_recipient"',
    'ALTER TABLE "mail_outbox" DROP COLUMN "kind"',
  ];
}
