import type { MigrationInterface, QueryRunner } from 'typeorm';

export class UsersInvitations1795262401223 implements MigrationInterface {
  name = 'UsersInvitations1795262401223';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "invitations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "user_id" uuid NOT NULL, "inviter_user_id" uuid, "reset_hash_sha256" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "accepted_at" TIMESTAMP WITH TIME ZONE, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_5dec98cfdfd562e4ad3648bbb07" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_invitations_reset_hash" ON "invitations"  ("reset_hash_sha256") ',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_invitations_domain_user" ON "invitations"  ("system_domain_id", "user_id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "mail_outbox" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "to_address" text NOT NULL, "subject" text NOT NULL, "body" text NOT NULL, "status" text NOT NULL DEFAULT \'PENDING\', "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_fecc63c96385bc35a39ccf2a72e" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_mail_outbox_status" ON "mail_outbox"  ("status", "date_created") ',
    );
    await queryRunner.query(
      'ALTER TABLE "invitations" ADD CONSTRAINT "FK_7f95b93f2e9ed706fbebe9064b5" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "invitations" ADD CONSTRAINT "FK_fecdffec754fa4d5cea98709776" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "invitations" ADD CONSTRAINT "FK_35af849a29d7b255a6a5c13e262" FOREIGN KEY ("inviter_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "invitations" DROP CONSTRAINT "FK_35af849a29d7b255a6a5c13e262"');
    await queryRunner.query('ALTER TABLE "invitations" DROP CONSTRAINT "FK_fecdffec754fa4d5cea98709776"');
    await queryRunner.query('ALTER TABLE "invitations" DROP CONSTRAINT "FK_7f95b93f2e9ed706fbebe9064b5"');
    await queryRunner.query('DROP INDEX "public"."ix_mail_outbox_status"');
    await queryRunner.query('DROP TABLE "mail_outbox"');
    await queryRunner.query('DROP INDEX "public"."ix_invitations_domain_user"');
    await queryRunner.query('DROP INDEX "public"."uq_invitations_reset_hash"');
    await queryRunner.query('DROP TABLE "invitations"');
  }
}
