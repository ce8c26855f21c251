import { SqlMigration } from '../sql-migration.js';

export class ScimProfiles1795901644869 extends SqlMigration {
  name = 'ScimProfiles1795901644869';

  protected readonly upStatements = [
    'CREATE TABLE "scim_profiles" ("user_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "external_id" text, "display_name" text, "enterprise" jsonb NOT NULL DEFAULT \'{}\', "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_scim_profiles" PRIMARY KEY ("user_id"))',
    'CREATE INDEX "ix_scim_profiles_domain_external" ON "scim_profiles"  ("system_domain_id", "external_id") ',
    'ALTER TABLE "scim_profiles" ADD CONSTRAINT "FK_scim_profiles_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "scim_profiles" ADD CONSTRAINT "FK_scim_profiles_domain" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "scim_profiles" DROP CONSTRAINT "FK_scim_profiles_domain"',
    'ALTER TABLE "scim_profiles" DROP CONSTRAINT "FK_scim_profiles_user"',
    'DROP INDEX "public"."ix_scim_profiles_domain_external"',
    'DROP TABLE "scim_profiles"',
  ];
}
