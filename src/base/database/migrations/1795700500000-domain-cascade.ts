import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Rows that name a domain and had no foreign key to it; each now goes with its domain. */
const TABLES = [
  'approved_app_instances',
  'external_auth_requests',
  'oauth_authorization_codes',
  'oauth_refresh_tokens',
  'registrations',
] as const;

/**
 * Deleting a domain is one `DELETE FROM system_domains`: every table that names a domain has a foreign key
 * with ON DELETE CASCADE (users keep RESTRICT: the service moves or deletes them first; marketplace_nonces
 * keep SET NULL, so a consumed marketplace token stays spent). Rows naming a domain that no longer exists
 * (possible while there was no foreign key) are removed first; a registration only forgets the domain.
 */
export class DomainCascade1795700500000 implements MigrationInterface {
  name = 'DomainCascade1795700500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) {
      const orphan = `system_domain_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "system_domains" d WHERE d."id" = "${table}"."system_domain_id")`;
      await queryRunner.query(
        table === 'registrations'
          ? `UPDATE "${table}" SET "system_domain_id" = NULL WHERE ${orphan}`
          : `DELETE FROM "${table}" WHERE ${orphan}`,
      );
      await queryRunner.query(
        `ALTER TABLE "${table}" ADD CONSTRAINT "FK_${table}_domain" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP CONSTRAINT "FK_${table}_domain"`);
    }
  }
}
