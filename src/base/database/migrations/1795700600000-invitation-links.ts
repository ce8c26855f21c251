import { SqlMigration } from '../sql-migration.js';

/**
 * Reusable invitation links for a group (users/invite/token/request/): a digest of the link's secret, what it
 * grants, its expiry. A single-use invitation made from a link carries what the link grants (is_admin, groups).
 */
export class InvitationLinks1795700600000 extends SqlMigration {
  name = 'InvitationLinks1795700600000';

  protected readonly upStatements = [
    `CREATE TABLE "invitation_links" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "created_by_user_id" uuid NOT NULL, "primary_group_id" uuid NOT NULL, "group_ids" uuid array NOT NULL DEFAULT '{}', "is_admin" boolean NOT NULL DEFAULT false, "type" text NOT NULL DEFAULT 'STANDARD', "secret_sha256" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_invitation_links" PRIMARY KEY ("id"))`,
    'CREATE UNIQUE INDEX "uq_invitation_links_secret" ON "invitation_links" ("secret_sha256") ',
    'CREATE INDEX "ix_invitation_links_domain" ON "invitation_links" ("system_domain_id") ',
    'ALTER TABLE "invitation_links" ADD CONSTRAINT "FK_invitation_links_domain" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "invitation_links" ADD CONSTRAINT "FK_invitation_links_creator" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "invitation_links" ADD CONSTRAINT "FK_invitation_links_group" FOREIGN KEY ("primary_group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    `ALTER TABLE "invitations" ADD "group_ids" uuid array NOT NULL DEFAULT '{}'`,
    'ALTER TABLE "invitations" ADD "is_admin" boolean NOT NULL DEFAULT false',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "invitations" DROP COLUMN "is_admin"',
    'ALTER TABLE "invitations" DROP COLUMN "group_ids"',
    'DROP TABLE "invitation_links"',
  ];
}
