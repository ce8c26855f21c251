import { SqlMigration } from '../sql-migration.js';

/** A member's primary group in a domain (the published User's primary_group; set by an invitation link). */
export class PrimaryGroup1795700630000 extends SqlMigration {
  name = 'PrimaryGroup1795700630000';

  protected readonly upStatements = [
    'ALTER TABLE "user_system_domains" ADD "primary_group_id" uuid',
    'ALTER TABLE "user_system_domains" ADD CONSTRAINT "FK_user_system_domains_primary_group" FOREIGN KEY ("primary_group_id") REFERENCES "groups"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "user_system_domains" DROP CONSTRAINT "FK_user_system_domains_primary_group"',
    'ALTER TABLE "user_system_domains" DROP COLUMN "primary_group_id"',
  ];
}
