import { SqlMigration } from '../sql-migration.js';

export class UsersInvitations1795262401223 extends SqlMigration {
  name = 'UsersInvitations1795262401223';

  protected readonly upStatements = [
    'CREATE TABLE "invitations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "user_id" uuid NOT NULL, "inviter_user_id" uuid, "reset_hash_sha256" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5dec98cfdfd562e4ad3648bbb07" PRIMARY KEY ("id"))',
    'CREATE UNIQUE INDEX "uq_invitations_reset_hash" ON "invitations"  ("reset_hash_sha256") ',
    'CREATE INDEX "ix_invitations_domain_user" ON "invitations"  ("system_domain_id", "user_id") ',
    'CREATE TABLE "mail_outbox" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "to_address" text NOT NULL, "subject" text NOT NULL, "body" text NOT NULL, "status" text NOT NULL DEFAULT \'PENDING\', "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_fecc63c96385bc35a39ccf2a72e" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_mail_outbox_status" ON "mail_outbox"  ("status", "date_created") ',
    'ALTER TABLE "invitations" ADD CONSTRAINT "FK_7f95b93f2e9ed706fbebe9064b5" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "invitations" ADD CONSTRAINT "FK_fecdffec754fa4d5cea98709776" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "invitations" ADD CONSTRAINT "FK_35af849a29d7b255a6a5c13e262" FOREIGN KEY ("inviter_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "invitations" DROP CONSTRAINT "FK_35af849a29d7b255a6a5c13e262"',
    'ALTER TABLE "invitations" DROP CONSTRAINT "FK_fecdffec754fa4d5cea98709776"',
    'ALTER TABLE "invitations" DROP CONSTRAINT "FK_7f95b93f2e9ed706fbebe9064b5"',
    'DROP INDEX "public"."ix_mail_outbox_status"',
    'DROP TABLE "mail_outbox"',
    'DROP INDEX "public"."ix_invitations_domain_user"',
    'DROP INDEX "public"."uq_invitations_reset_hash"',
    'DROP TABLE "invitations"',
  ];
}
