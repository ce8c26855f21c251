import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reusable invitation links for a group (users/invite/token/request/): a digest of the link's secret, what it
 * grants, its expiry. A single-use invitation made from a link carries what the link grants (is_admin, groups).
 */
export class InvitationLinks1795700600000 implements MigrationInterface {
  name = 'InvitationLinks1795700600000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "invitation_links" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "created_by_user_id" uuid NOT NULL, "primary_group_id" uuid NOT NULL, "group_ids" uuid array NOT NULL DEFAULT '{}', "is_admin" boolean NOT NULL DEFAULT false, "type" text NOT NULL DEFAULT 'STANDARD', "secret_sha256" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_invitation_links" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_invitation_links_secret" ON "invitation_links" ("secret_sha256") ',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_invitation_links_domain" ON "invitation_links" ("system_domain_id") ',
    );
    await queryRunner.query(
      'ALTER TABLE "invitation_links" ADD CONSTRAINT "FK_invitation_links_domain" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "invitation_links" ADD CONSTRAINT "FK_invitation_links_creator" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "invitation_links" ADD CONSTRAINT "FK_invitation_links_group" FOREIGN KEY ("primary_group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(`ALTER TABLE "invitations" ADD "group_ids" uuid array NOT NULL DEFAULT '{}'`);
    await queryRunner.query('ALTER TABLE "invitations" ADD "is_admin" boolean NOT NULL DEFAULT false');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "invitations" DROP COLUMN "is_admin"');
    await queryRunner.query('ALTER TABLE "invitations" DROP COLUMN "group_ids"');
    await queryRunner.query('DROP TABLE "invitation_links"');
  }
}
