import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Teams and role groups are rows of `groups` with a kind (existing rows are groups), so their members'
 * roles reach the guard through the one membership table; names are unique per domain and kind; teams carry
 * no roles. Group logos, and the identity providers' group names mapped to groups (applied at each SSO).
 */
export class TeamsRoleGroups1795700200000 implements MigrationInterface {
  name = 'TeamsRoleGroups1795700200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."uq_groups_domain_name"');
    await queryRunner.query(
      'CREATE TABLE "group_logos" ("group_id" uuid NOT NULL, "content_type" text NOT NULL, "bytes" bytea NOT NULL, "sha256" text NOT NULL, "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_group_logos" PRIMARY KEY ("group_id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "group_mappings" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "name" text NOT NULL, "group_id" uuid NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_group_mappings" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_group_mappings_group" ON "group_mappings"  ("group_id") ');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_group_mappings_domain_name" ON "group_mappings"  ("system_domain_id", "name") ',
    );
    await queryRunner.query('ALTER TABLE "groups" ADD "kind" text NOT NULL DEFAULT \'GROUP\'');
    await queryRunner.query('ALTER TABLE "groups" ADD "alias" text');
    await queryRunner.query('ALTER TABLE "groups" ADD "external_id" text');
    await queryRunner.query('ALTER TABLE "groups" ADD "default_user_type" text');
    await queryRunner.query('ALTER TABLE "groups" ADD "role_categories" text array NOT NULL DEFAULT \'{}\'');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_groups_domain_name" ON "groups"  ("system_domain_id", "kind", "name") ',
    );
    await queryRunner.query(
      'ALTER TABLE "groups" ADD CONSTRAINT "ck_groups_team_roles" CHECK ("kind" <> \'TEAM\' OR "roles" = \'{}\')',
    );
    await queryRunner.query(
      'ALTER TABLE "groups" ADD CONSTRAINT "ck_groups_kind" CHECK ("kind" IN (\'GROUP\', \'TEAM\', \'ROLE_GROUP\'))',
    );
    await queryRunner.query(
      'ALTER TABLE "group_logos" ADD CONSTRAINT "FK_group_logos_group" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "group_mappings" ADD CONSTRAINT "FK_group_mappings_domain" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "group_mappings" ADD CONSTRAINT "FK_group_mappings_group" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "group_mappings" DROP CONSTRAINT "FK_group_mappings_group"');
    await queryRunner.query('ALTER TABLE "group_mappings" DROP CONSTRAINT "FK_group_mappings_domain"');
    await queryRunner.query('ALTER TABLE "group_logos" DROP CONSTRAINT "FK_group_logos_group"');
    await queryRunner.query('ALTER TABLE "groups" DROP CONSTRAINT "ck_groups_kind"');
    await queryRunner.query('ALTER TABLE "groups" DROP CONSTRAINT "ck_groups_team_roles"');
    await queryRunner.query('DROP INDEX "public"."uq_groups_domain_name"');
    await queryRunner.query('ALTER TABLE "groups" DROP COLUMN "role_categories"');
    await queryRunner.query('ALTER TABLE "groups" DROP COLUMN "default_user_type"');
    await queryRunner.query('ALTER TABLE "groups" DROP COLUMN "external_id"');
    await queryRunner.query('ALTER TABLE "groups" DROP COLUMN "alias"');
    await queryRunner.query('ALTER TABLE "groups" DROP COLUMN "kind"');
    await queryRunner.query('DROP INDEX "public"."uq_group_mappings_domain_name"');
    await queryRunner.query('DROP INDEX "public"."ix_group_mappings_group"');
    await queryRunner.query('DROP TABLE "group_mappings"');
    await queryRunner.query('DROP TABLE "group_logos"');
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_groups_domain_name" ON "groups"  ("system_domain_id", "name") ',
    );
  }
}
