import type { MigrationInterface, QueryRunner } from 'typeorm';

/** System domain administration: each domain's logo, stored in the database (served by every instance). */
export class SystemDomainAdmin1795264700000 implements MigrationInterface {
  name = 'SystemDomainAdmin1795264700000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "system_domain_logos" ("system_domain_id" uuid NOT NULL, "content_type" text NOT NULL, "bytes" bytea NOT NULL, "sha256" text NOT NULL, "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_system_domain_logos" PRIMARY KEY ("system_domain_id"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "system_domain_logos" ADD CONSTRAINT "FK_system_domain_logos_domain" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "system_domain_logos"');
  }
}
