import { SqlMigration } from '../sql-migration.js';

/**
 * Administrator rights move from the user to each membership. Data step: an administrator keeps their
 * rights in their home domain only (before, the flag wrongly applied in every domain they had joined).
 */
export class AdminPerDomain1795263606252 extends SqlMigration {
  name = 'AdminPerDomain1795263606252';

  protected readonly upStatements = [
    'ALTER TABLE "user_system_domains" ADD "is_admin" boolean NOT NULL DEFAULT false',
    `UPDATE "user_system_domains" m SET "is_admin" = true FROM "users" u
       WHERE u."id" = m."user_id" AND u."is_admin" AND u."system_domain_id" = m."system_domain_id"`,
    'ALTER TABLE "users" DROP COLUMN "is_admin"',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "users" ADD "is_admin" boolean NOT NULL DEFAULT false',
    `UPDATE "users" u SET "is_admin" = true FROM "user_system_domains" m
       WHERE u."id" = m."user_id" AND m."is_admin" AND u."system_domain_id" = m."system_domain_id"`,
    'ALTER TABLE "user_system_domains" DROP COLUMN "is_admin"',
  ];
}
