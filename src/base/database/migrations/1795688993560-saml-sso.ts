import { SqlMigration } from '../sql-migration.js';

/**
 * SAML single sign-on (issue 19): identity providers per domain (settings, the sealed SP key), the email
 * domains routed to them, the AuthnRequests awaiting an answer, every accepted assertion ID (replay cache
 * shared by all instances) and the single-use sign-in codes (SHA-256 only).
 */
export class SamlSso1795688993560 extends SqlMigration {
  name = 'SamlSso1795688993560';

  protected readonly upStatements = [
    'CREATE TABLE "identity_providers" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "public_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "type" text NOT NULL, "settings" jsonb NOT NULL, "verbose_logging" boolean NOT NULL DEFAULT false, "enabled" boolean NOT NULL DEFAULT true, "sp_private_key_sealed" text, "sp_certificate" text, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3ac9e77e3690c03f7f25579c8e0" PRIMARY KEY ("id"))',
    'CREATE UNIQUE INDEX "uq_identity_providers_public_id" ON "identity_providers"  ("public_id") ',
    'CREATE INDEX "ix_identity_providers_domain" ON "identity_providers"  ("system_domain_id", "id") ',
    'CREATE TABLE "identity_provider_domains" ("domain" text NOT NULL, "identity_provider_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_484273560165949599e6614c9c4" PRIMARY KEY ("domain"))',
    'CREATE INDEX "ix_identity_provider_domains_idp" ON "identity_provider_domains"  ("identity_provider_id") ',
    'CREATE TABLE "saml_requests" ("id" text NOT NULL, "identity_provider_id" uuid NOT NULL, "return_to" text, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_6bfb0a52a23916eaf5f1586beab" PRIMARY KEY ("id"))',
    'CREATE INDEX "ix_saml_requests_expires" ON "saml_requests"  ("expires") ',
    'CREATE TABLE "saml_assertion_ids" ("identity_provider_id" uuid NOT NULL, "assertion_id" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_1991fbfba315f29305a005cdf64" PRIMARY KEY ("identity_provider_id", "assertion_id"))',
    'CREATE INDEX "ix_saml_assertion_ids_expires" ON "saml_assertion_ids"  ("expires") ',
    'CREATE TABLE "saml_login_codes" ("code_sha256" text NOT NULL, "user_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "identity_provider_id" uuid NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_30299837d29aa20c96729bbb09e" PRIMARY KEY ("code_sha256"))',
    'CREATE INDEX "ix_saml_login_codes_expires" ON "saml_login_codes"  ("expires") ',
    'ALTER TABLE "identity_providers" ADD CONSTRAINT "FK_b82941c41fb08affce9e3b30378" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "identity_provider_domains" ADD CONSTRAINT "FK_8a39211777c870bb162a00641a0" FOREIGN KEY ("identity_provider_id") REFERENCES "identity_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "identity_provider_domains" ADD CONSTRAINT "FK_fbc3985bd93210e2aa6c556ad56" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "saml_requests" ADD CONSTRAINT "FK_f1ced87ecd3ba0339748c6288e4" FOREIGN KEY ("identity_provider_id") REFERENCES "identity_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "saml_login_codes" ADD CONSTRAINT "FK_650efe77d5b78d060b2d207f67b" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "saml_login_codes" ADD CONSTRAINT "FK_ad1a462d258bad0a92edfaaaa1b" FOREIGN KEY ("identity_provider_id") REFERENCES "identity_providers"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "saml_login_codes" DROP CONSTRAINT "FK_ad1a462d258bad0a92edfaaaa1b"',
    'ALTER TABLE "saml_login_codes" DROP CONSTRAINT "FK_650efe77d5b78d060b2d207f67b"',
    'ALTER TABLE "saml_requests" DROP CONSTRAINT "FK_f1ced87ecd3ba0339748c6288e4"',
    'ALTER TABLE "identity_provider_domains" DROP CONSTRAINT "FK_fbc3985bd93210e2aa6c556ad56"',
    'ALTER TABLE "identity_provider_domains" DROP CONSTRAINT "FK_8a39211777c870bb162a00641a0"',
    'ALTER TABLE "identity_providers" DROP CONSTRAINT "FK_b82941c41fb08affce9e3b30378"',
    'DROP INDEX "public"."ix_saml_login_codes_expires"',
    'DROP TABLE "saml_login_codes"',
    'DROP INDEX "public"."ix_saml_assertion_ids_expires"',
    'DROP TABLE "saml_assertion_ids"',
    'DROP INDEX "public"."ix_saml_requests_expires"',
    'DROP TABLE "saml_requests"',
    'DROP INDEX "public"."ix_identity_provider_domains_idp"',
    'DROP TABLE "identity_provider_domains"',
    'DROP INDEX "public"."ix_identity_providers_domain"',
    'DROP INDEX "public"."uq_identity_providers_public_id"',
    'DROP TABLE "identity_providers"',
  ];
}
