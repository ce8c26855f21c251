import { SqlMigration } from '../sql-migration.js';

/** The invitations still pending (not yet accepted), by user and domain. */
const PENDING = `SELECT "user_id", "system_domain_id" FROM "invitations" WHERE "accepted_at" IS NULL`;

/**
 * An invitation is pending until the person accepts it, and holds only an email meanwhile. Data step for
 * invitations still pending: their email and names move onto the invitation; the membership the old code
 * granted at once is taken back (with the group memberships and tokens it had in that domain); accounts
 * that existed only as placeholders for such invitations (no password, inactive, no membership left) go.
 */
export class PendingInvitations1795263900000 extends SqlMigration {
  name = 'PendingInvitations1795263900000';

  protected readonly upStatements = [
    'ALTER TABLE "invitations" ADD "email" text',
    'ALTER TABLE "invitations" ADD "first_name" text',
    'ALTER TABLE "invitations" ADD "last_name" text',
    `UPDATE "invitations" i SET "email" = u."email", "first_name" = u."first_name", "last_name" = u."last_name"
       FROM "users" u WHERE u."id" = i."user_id"`,
    'ALTER TABLE "invitations" ALTER COLUMN "email" SET NOT NULL',
    'ALTER TABLE "invitations" ALTER COLUMN "user_id" DROP NOT NULL',
    `DELETE FROM "group_members" gm USING "groups" g, (${PENDING}) p
       WHERE gm."group_id" = g."id" AND g."system_domain_id" = p."system_domain_id" AND gm."user_id" = p."user_id"`,
    `DELETE FROM "tokens" t USING (${PENDING}) p
       WHERE t."user_id" = p."user_id" AND t."system_domain_id" = p."system_domain_id"`,
    `DELETE FROM "user_system_domains" m USING (${PENDING}) p
       WHERE m."user_id" = p."user_id" AND m."system_domain_id" = p."system_domain_id"`,
    `CREATE TEMPORARY TABLE "placeholder_users" AS
       SELECT DISTINCT i."user_id" AS id FROM "invitations" i JOIN "users" u ON u."id" = i."user_id"
       WHERE i."accepted_at" IS NULL AND u."password_hash" IS NULL AND u."status" = 'INACTIVE'
         AND NOT EXISTS (SELECT 1 FROM "user_system_domains" m WHERE m."user_id" = u."id")`,
    'UPDATE "invitations" SET "user_id" = NULL WHERE "accepted_at" IS NULL',
    'DELETE FROM "users" WHERE "id" IN (SELECT id FROM "placeholder_users")',
    'DROP TABLE "placeholder_users"',
    // keep the newest pending invitation per domain and email
    `DELETE FROM "invitations" i USING "invitations" j
       WHERE i."accepted_at" IS NULL AND j."accepted_at" IS NULL AND i."system_domain_id" = j."system_domain_id"
         AND i."email" = j."email" AND (i."date_created", i."id") < (j."date_created", j."id")`,
    'CREATE UNIQUE INDEX "uq_invitations_pending" ON "invitations" ("system_domain_id", "email") WHERE "accepted_at" IS NULL',
  ];

  protected readonly downStatements = [
    'DROP INDEX "uq_invitations_pending"',
    'DELETE FROM "invitations" WHERE "user_id" IS NULL',
    'ALTER TABLE "invitations" ALTER COLUMN "user_id" SET NOT NULL',
    'ALTER TABLE "invitations" DROP COLUMN "last_name"',
    'ALTER TABLE "invitations" DROP COLUMN "first_name"',
    'ALTER TABLE "invitations" DROP COLUMN "email"',
  ];
}
