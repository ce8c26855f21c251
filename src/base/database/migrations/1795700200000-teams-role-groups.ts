import { SqlMigration } from '../sql-migration.js';

/**
 * Teams and role groups are rows of `groups` with a kind (existing rows are groups), so their members'
 * roles reach the guard through the one membership table; names are unique per domain and kind; teams carry
 * no roles. Group logos, and the identity providers' group names mapped to groups (applied at each SSO).
 */
export class TeamsRoleGroups1795700200000 extends SqlMigration {
  name = 'TeamsRoleGroups1795700200000';

  protected readonly upStatements = [
    'DROP INDEX "public"."uq_groups_domain_name"',
    'CREATE TABLE "group_logos" ("group_id" uuid NOT NULL, "content_type" text NOT NULL, "bytes" bytea NOT NULL, "sha256" text NOT NULL, "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_group_logos" PRIMARY KEY ("group_id"))',
    'CREATE TABLE "group_mappings" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "name" text NOT NULL, "group_id" uuid NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_group_mappings" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_group_mappings_group" ON "group_mappings"  ("group_id") ',
    'CREATE UNIQUE INDEX "uq_group_mappings_domain_name" ON "group_mappings"  ("system_domain_id", "name") ',
    'ALTER TABLE "groups" ADD "kind" text NOT NULL DEFAULT \'GROUP\'',
    'ALTER TABLE "groups" ADD "alias" text',
    'ALTER TABLE "groups" ADD "external_id" text',
    'ALTER TABLE "groups" ADD "default_user_type" text',
    'ALTER TABLE "groups" ADD "role_categories" text array NOT NULL DEFAULT \'{}\'',
    'CREATE UNIQUE INDEX "uq_groups_domain_name" ON "groups"  ("system_domain_id", "kind", "name") ',
    'ALTER TABLE "groups" ADD CONSTRAINT "ck_groups_team_roles" CHECK ("kind" <> \'TEAM\' OR "roles" = \'{}\')',
    'ALTER TABLE "groups" ADD CONSTRAINT "ck_groups_kind" CHECK ("kind" IN (\'GROUP\', \'TEAM\', \'ROLE_GROUP\'))',
    'ALTER TABLE "group_logos" ADD CONSTRAINT "FK_group_logos_group" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "group_mappings" ADD CONSTRAINT "FK_group_mappings_domain" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "group_mappings" ADD CONSTRAINT "FK_group_mappings_group" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "group_mappings" DROP CONSTRAINT "FK_group_mappings_group"',
    'ALTER TABLE "group_mappings" DROP CONSTRAINT "FK_group_mappings_domain"',
    'ALTER TABLE "group_logos" DROP CONSTRAINT "FK_group_logos_group"',
    'ALTER TABLE "groups" DROP CONSTRAINT "ck_groups_kind"',
    'ALTER TABLE "groups" DROP CONSTRAINT "ck_groups_team_roles"',
    'DROP INDEX "public"."uq_groups_domain_name"',
    'ALTER TABLE "groups" DROP COLUMN "role_categories"',
    'ALTER TABLE "groups" DROP COLUMN "default_user_type"',
    'ALTER TABLE "groups" DROP COLUMN "external_id"',
    'ALTER TABLE "groups" DROP COLUMN "alias"',
    'ALTER TABLE "groups" DROP COLUMN "kind"',
    'DROP INDEX "public"."uq_group_mappings_domain_name"',
    'DROP INDEX "public"."ix_group_mappings_group"',
    'DROP TABLE "group_mappings"',
    'DROP TABLE "group_logos"',
    'CREATE UNIQUE INDEX "uq_groups_domain_name" ON "groups"  ("system_domain_id", "name") ',
  ];
}
