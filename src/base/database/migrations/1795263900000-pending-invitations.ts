import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An invitation is pending until the person accepts it, and holds only an email meanwhile. Data step for
 * invitations still pending: their email and names move onto the invitation; the membership the old code
 * granted at once is taken back (with the group memberships and tokens it had in that domain); accounts
 * that existed only as placeholders for such invitations (no password, inactive, no membership left) go.
 */
export class PendingInvitations1795263900000 implements MigrationInterface {
  name = 'PendingInvitations1795263900000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "invitations" ADD "email" text');
    await queryRunner.query('ALTER TABLE "invitations" ADD "first_name" text');
    await queryRunner.query('ALTER TABLE "invitations" ADD "last_name" text');
    await queryRunner.query(
      `UPDATE "invitations" i SET "email" = u."email", "first_name" = u."first_name", "last_name" = u."last_name"
       FROM "users" u WHERE u."id" = i."user_id"`,
    );
    await queryRunner.query('ALTER TABLE "invitations" ALTER COLUMN "email" SET NOT NULL');
    await queryRunner.query('ALTER TABLE "invitations" ALTER COLUMN "user_id" DROP NOT NULL');
    const pending = `SELECT "user_id", "system_domain_id" FROM "invitations" WHERE "accepted_at" IS NULL`;
    await queryRunner.query(
      `DELETE FROM "group_members" gm USING "groups" g, (${pending}) p
       WHERE gm."group_id" = g."id" AND g."system_domain_id" = p."system_domain_id" AND gm."user_id" = p."user_id"`,
    );
    await queryRunner.query(
      `DELETE FROM "tokens" t USING (${pending}) p
       WHERE t."user_id" = p."user_id" AND t."system_domain_id" = p."system_domain_id"`,
    );
    await queryRunner.query(
      `DELETE FROM "user_system_domains" m USING (${pending}) p
       WHERE m."user_id" = p."user_id" AND m."system_domain_id" = p."system_domain_id"`,
    );
    await queryRunner.query(
      `CREATE TEMPORARY TABLE "placeholder_users" AS
       SELECT DISTINCT i."user_id" AS id FROM "invitations" i JOIN "users" u ON u."id" = i."user_id"
       WHERE i."accepted_at" IS NULL AND u."password_hash" IS NULL AND u."status" = 'INACTIVE'
         AND NOT EXISTS (SELECT 1 FROM "user_system_domains" m WHERE m."user_id" = u."id")`,
    );
    await queryRunner.query('UPDATE "invitations" SET "user_id" = NULL WHERE "accepted_at" IS NULL');
    await queryRunner.query('DELETE FROM "users" WHERE "id" IN (SELECT id FROM "placeholder_users")');
    await queryRunner.query('DROP TABLE "placeholder_users"');
    // keep the newest pending invitation per domain and email
    await queryRunner.query(
      `DELETE FROM "invitations" i USING "invitations" j
       WHERE i."accepted_at" IS NULL AND j."accepted_at" IS NULL AND i."system_domain_id" = j."system_domain_id"
         AND i."email" = j."email" AND (i."date_created", i."id") < (j."date_created", j."id")`,
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_invitations_pending" ON "invitations" ("system_domain_id", "email") WHERE "accepted_at" IS NULL',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "uq_invitations_pending"');
    await queryRunner.query('DELETE FROM "invitations" WHERE "user_id" IS NULL');
    await queryRunner.query('ALTER TABLE "invitations" ALTER COLUMN "user_id" SET NOT NULL');
    await queryRunner.query('ALTER TABLE "invitations" DROP COLUMN "last_name"');
    await queryRunner.query('ALTER TABLE "invitations" DROP COLUMN "first_name"');
    await queryRunner.query('ALTER TABLE "invitations" DROP COLUMN "email"');
  }
}
