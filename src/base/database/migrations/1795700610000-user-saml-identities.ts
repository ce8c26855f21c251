import { SqlMigration } from '../sql-migration.js';

/** A user's single-sign-on identity in a domain (users/{id}/saml/): which IdP and which asserted email. */
export class UserSamlIdentities1795700610000 extends SqlMigration {
  name = 'UserSamlIdentities1795700610000';

  protected readonly upStatements = [
    'CREATE TABLE "user_saml_identities" ("user_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "identity_provider_id" uuid NOT NULL, "email" text NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_user_saml_identities" PRIMARY KEY ("user_id", "system_domain_id"))',
    'CREATE UNIQUE INDEX "uq_user_saml_identities_idp_email" ON "user_saml_identities" ("identity_provider_id", "email") ',
    'ALTER TABLE "user_saml_identities" ADD CONSTRAINT "FK_user_saml_identities_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "user_saml_identities" ADD CONSTRAINT "FK_user_saml_identities_domain" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "user_saml_identities" ADD CONSTRAINT "FK_user_saml_identities_idp" FOREIGN KEY ("identity_provider_id") REFERENCES "identity_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = ['DROP TABLE "user_saml_identities"'];
}
