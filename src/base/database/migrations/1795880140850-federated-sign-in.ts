import { SqlMigration } from '../sql-migration.js';

/**
 * Federated sign-in (docs/federated-login.md): a domain's company directories (`directories`) and external
 * OpenID providers (`oidc_providers`, with the sign-ins under way, `oidc_login_states`, and the single-use
 * codes of their returns, `oidc_login_codes`); an email domain binding now names exactly one authenticator of
 * its domain (a SAML IdP, a directory or an OpenID provider).
 */
export class FederatedSignIn1795880140850 extends SqlMigration {
  name = 'FederatedSignIn1795880140850';

  protected readonly upStatements = [
    'CREATE TABLE "directories" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "name" text NOT NULL, "type" text NOT NULL, "settings" jsonb NOT NULL, "bind_password_sealed" text, "enabled" boolean NOT NULL DEFAULT true, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d9318ce2673e948a761c266b63e" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_directories_domain" ON "directories"  ("system_domain_id", "id") ',
    'CREATE TABLE "oidc_providers" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "public_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "name" text NOT NULL, "issuer" text NOT NULL, "client_id" text NOT NULL, "client_secret_sealed" text NOT NULL, "scopes" text array NOT NULL, "settings" jsonb NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7e80d1ff5af72ef3fdfba897fd2" PRIMARY KEY ("id"))',
    'CREATE UNIQUE INDEX "uq_oidc_providers_public_id" ON "oidc_providers"  ("public_id") ',
    'CREATE INDEX "ix_oidc_providers_domain" ON "oidc_providers"  ("system_domain_id", "id") ',
    'CREATE TABLE "oidc_login_states" ("state_sha256" text NOT NULL, "oidc_provider_id" uuid NOT NULL, "code_verifier_sealed" text NOT NULL, "nonce" text NOT NULL, "return_to" text, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_d28a73024b28ddb89a0a227a306" PRIMARY KEY ("state_sha256"))',
    'CREATE INDEX "ix_oidc_login_states_expires" ON "oidc_login_states"  ("expires") ',
    'CREATE TABLE "oidc_login_codes" ("code_sha256" text NOT NULL, "user_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "oidc_provider_id" uuid NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_09765763e5a20964a07a705821c" PRIMARY KEY ("code_sha256"))',
    'CREATE INDEX "ix_oidc_login_codes_expires" ON "oidc_login_codes"  ("expires") ',
    'ALTER TABLE "identity_provider_domains" ADD "directory_id" uuid',
    'ALTER TABLE "identity_provider_domains" ADD "oidc_provider_id" uuid',
    'ALTER TABLE "identity_provider_domains" DROP CONSTRAINT "FK_8a39211777c870bb162a00641a0"',
    'ALTER TABLE "identity_provider_domains" ALTER COLUMN "identity_provider_id" DROP NOT NULL',
    'CREATE INDEX "ix_identity_provider_domains_directory" ON "identity_provider_domains"  ("directory_id") ',
    'CREATE INDEX "ix_identity_provider_domains_oidc_provider" ON "identity_provider_domains"  ("oidc_provider_id") ',
    'ALTER TABLE "identity_provider_domains" ADD CONSTRAINT "ck_identity_provider_domains_one_authenticator" CHECK (num_nonnulls("identity_provider_id", "directory_id", "oidc_provider_id") = 1)',
    'ALTER TABLE "directories" ADD CONSTRAINT "FK_0226149d5d3aabbe7cc52e2eaab" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "oidc_providers" ADD CONSTRAINT "FK_52a00ffadad6adc91007e4c1e96" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "oidc_login_states" ADD CONSTRAINT "FK_a1c17921c5ebfd20775c123c2b3" FOREIGN KEY ("oidc_provider_id") REFERENCES "oidc_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "oidc_login_codes" ADD CONSTRAINT "FK_c0dfebd3ef247cf322b75f05a98" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "oidc_login_codes" ADD CONSTRAINT "FK_9612146c6b9250dbf1ec980dcca" FOREIGN KEY ("oidc_provider_id") REFERENCES "oidc_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "identity_provider_domains" ADD CONSTRAINT "FK_8a39211777c870bb162a00641a0" FOREIGN KEY ("identity_provider_id") REFERENCES "identity_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "identity_provider_domains" ADD CONSTRAINT "FK_74fa31617634c1420b0e6962706" FOREIGN KEY ("directory_id") REFERENCES "directories"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "identity_provider_domains" ADD CONSTRAINT "FK_598a9fcdfb548714d6452dc3a6f" FOREIGN KEY ("oidc_provider_id") REFERENCES "oidc_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "identity_provider_domains" DROP CONSTRAINT "FK_598a9fcdfb548714d6452dc3a6f"',
    'ALTER TABLE "identity_provider_domains" DROP CONSTRAINT "FK_74fa31617634c1420b0e6962706"',
    'ALTER TABLE "identity_provider_domains" DROP CONSTRAINT "FK_8a39211777c870bb162a00641a0"',
    'ALTER TABLE "oidc_login_codes" DROP CONSTRAINT "FK_9612146c6b9250dbf1ec980dcca"',
    'ALTER TABLE "oidc_login_codes" DROP CONSTRAINT "FK_c0dfebd3ef247cf322b75f05a98"',
    'ALTER TABLE "oidc_login_states" DROP CONSTRAINT "FK_a1c17921c5ebfd20775c123c2b3"',
    'ALTER TABLE "oidc_providers" DROP CONSTRAINT "FK_52a00ffadad6adc91007e4c1e96"',
    'ALTER TABLE "directories" DROP CONSTRAINT "FK_0226149d5d3aabbe7cc52e2eaab"',
    'ALTER TABLE "identity_provider_domains" DROP CONSTRAINT "ck_identity_provider_domains_one_authenticator"',
    'DROP INDEX "public"."ix_identity_provider_domains_oidc_provider"',
    'DROP INDEX "public"."ix_identity_provider_domains_directory"',
    'ALTER TABLE "identity_provider_domains" ALTER COLUMN "identity_provider_id" SET NOT NULL',
    'ALTER TABLE "identity_provider_domains" ADD CONSTRAINT "FK_8a39211777c870bb162a00641a0" FOREIGN KEY ("identity_provider_id") REFERENCES "identity_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "identity_provider_domains" DROP COLUMN "oidc_provider_id"',
    'ALTER TABLE "identity_provider_domains" DROP COLUMN "directory_id"',
    'DROP INDEX "public"."ix_oidc_login_codes_expires"',
    'DROP TABLE "oidc_login_codes"',
    'DROP INDEX "public"."ix_oidc_login_states_expires"',
    'DROP TABLE "oidc_login_states"',
    'DROP INDEX "public"."ix_oidc_providers_domain"',
    'DROP INDEX "public"."uq_oidc_providers_public_id"',
    'DROP TABLE "oidc_providers"',
    'DROP INDEX "public"."ix_directories_domain"',
    'DROP TABLE "directories"',
  ];
}
