import { SqlMigration } from '../sql-migration.js';

/** System domain administration: each domain's logo, stored in the database (served by every instance). */
export class SystemDomainAdmin1795264700000 extends SqlMigration {
  name = 'SystemDomainAdmin1795264700000';

  protected readonly upStatements = [
    `CREATE TABLE "system_domain_logos" ("system_domain_id" uuid NOT NULL, "content_type" text NOT NULL, "bytes" bytea NOT NULL, "sha256" text NOT NULL, "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_system_domain_logos" PRIMARY KEY ("system_domain_id"))`,
    `ALTER TABLE "system_domain_logos" ADD CONSTRAINT "FK_system_domain_logos_domain" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
  ];

  protected readonly downStatements = ['DROP TABLE "system_domain_logos"'];
}
