import type { MigrationInterface, QueryRunner } from 'typeorm';

// the ceilings as they were when this migration was written (a migration never follows later code)
const DOMAIN_ROLES = [
  'can_read_apps',
  'can_write_apps',
  'can_delete_apps',
  'can_read_tokens',
  'can_delete_tokens',
  'can_read_users',
  'can_write_users',
  'can_delete_users',
  'can_read_groups',
  'can_write_groups',
  'can_delete_groups',
  'can_read_assets',
  'can_write_assets',
  'can_delete_assets',
  'can_read_collections',
  'can_write_collections',
  'can_delete_collections',
];
const SUPER_ROLES = ['can_read_system_domains', 'can_write_system_domains', 'can_delete_system_domains'];
const DOMAIN_ADMIN_CAP = ['@admin', ...DOMAIN_ROLES];
const FULL_CAP = ['@super', '@admin', ...DOMAIN_ROLES, ...SUPER_ROLES];

/**
 * Ceilings on what tokens minted for an app may do (the credential invariant, README "Security").
 * Data step: an app that already acts as someone gets a domain administrator's ceiling, or everything when a
 * super administrator created it; the app's PATs and client_credentials tokens inherit the app's ceiling.
 * External-auth approvals waiting to be collected (ten minutes at most) are dropped: their approver's rights
 * were not recorded.
 */
export class CredentialCeilings1795263800000 implements MigrationInterface {
  name = 'CredentialCeilings1795263800000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "apps" ADD "acting_rights_cap" text array');
    await queryRunner.query(
      `UPDATE "apps" a SET "acting_rights_cap" = CASE
         WHEN EXISTS (SELECT 1 FROM "users" u WHERE u."id" = a."created_by_user_id" AND u."is_super_admin")
         THEN $1::text[] ELSE $2::text[] END
       WHERE a."default_user_id" IS NOT NULL`,
      [FULL_CAP, DOMAIN_ADMIN_CAP],
    );
    await queryRunner.query(
      'ALTER TABLE "apps" ADD CONSTRAINT "chk_apps_acting_rights_cap" CHECK ("default_user_id" IS NULL OR "acting_rights_cap" IS NOT NULL)',
    );
    await queryRunner.query('ALTER TABLE "tokens" ADD "rights_cap" text array');
    await queryRunner.query(
      `UPDATE "tokens" t SET "rights_cap" = COALESCE(a."acting_rights_cap", $1::text[]) FROM "apps" a
       WHERE a."id" = t."app_id" AND (t."kind" = 'PAT' OR (t."kind" = 'OAUTH' AND t."grant_id" IS NULL))
         AND a."default_user_id" IS NOT NULL`,
      [DOMAIN_ADMIN_CAP],
    );
    await queryRunner.query('DELETE FROM "external_auth_requests" WHERE "token_id" IS NULL');
    await queryRunner.query('DELETE FROM "approved_app_instances" WHERE "token_id" IS NULL');
    await queryRunner.query(
      `ALTER TABLE "external_auth_requests" ADD "rights_cap" text array NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query('ALTER TABLE "external_auth_requests" ALTER COLUMN "rights_cap" DROP DEFAULT');
    await queryRunner.query(
      `ALTER TABLE "approved_app_instances" ADD "rights_cap" text array NOT NULL DEFAULT '{}'`,
    );
    await queryRunner.query('ALTER TABLE "approved_app_instances" ALTER COLUMN "rights_cap" DROP DEFAULT');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "approved_app_instances" DROP COLUMN "rights_cap"');
    await queryRunner.query('ALTER TABLE "external_auth_requests" DROP COLUMN "rights_cap"');
    await queryRunner.query('ALTER TABLE "tokens" DROP COLUMN "rights_cap"');
    await queryRunner.query('ALTER TABLE "apps" DROP CONSTRAINT "chk_apps_acting_rights_cap"');
    await queryRunner.query('ALTER TABLE "apps" DROP COLUMN "acting_rights_cap"');
  }
}
