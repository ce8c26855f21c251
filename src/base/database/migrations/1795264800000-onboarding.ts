import { SqlMigration } from '../sql-migration.js';

/**
 * Onboarding: referral codes (unique case-insensitively through their lower-cased key), pending self-service
 * registrations (at most one pending per email; password argon2id, link secret SHA-256), and the content
 * entries the registration pages show.
 */
export class Onboarding1795264800000 extends SqlMigration {
  name = 'Onboarding1795264800000';

  protected readonly upStatements = [
    `CREATE TABLE "referral_codes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "code_key" text NOT NULL, "code" text NOT NULL, "valid_to" TIMESTAMP WITH TIME ZONE NOT NULL, "value" double precision NOT NULL, "billing_tier" text, "credit_expiry_days" integer, "do_not_delete" boolean NOT NULL DEFAULT false, "freeze_date" TIMESTAMP WITH TIME ZONE, "is_plg" boolean, "manage_system_domain_id" uuid, "billing_customer_id" text, "crm_id" text, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_referral_codes" PRIMARY KEY ("id"))`,
    `CREATE UNIQUE INDEX "uq_referral_codes_code_key" ON "referral_codes" ("code_key")`,
    `CREATE INDEX "ix_referral_codes_manage_domain" ON "referral_codes" ("manage_system_domain_id")`,
    `ALTER TABLE "referral_codes" ADD CONSTRAINT "FK_referral_codes_manage_domain" FOREIGN KEY ("manage_system_domain_id") REFERENCES "system_domains"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    `CREATE TABLE "registrations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email" text NOT NULL, "first_name" text NOT NULL, "last_name" text NOT NULL, "company_name" text, "country" text NOT NULL, "email_marketing_consent" boolean, "referral_code" text, "billing_customer_id" text, "billing_subscription_id" text, "payments_id" text, "marketplace_nonce_sha256" text, "password_hash" text NOT NULL, "secret_sha256" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "verified_at" TIMESTAMP WITH TIME ZONE, "superseded_at" TIMESTAMP WITH TIME ZONE, "user_id" uuid, "system_domain_id" uuid, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_registrations" PRIMARY KEY ("id"))`,
    `CREATE UNIQUE INDEX "uq_registrations_secret" ON "registrations" ("secret_sha256")`,
    `CREATE UNIQUE INDEX "uq_registrations_pending" ON "registrations" ("email") WHERE "verified_at" IS NULL AND "superseded_at" IS NULL`,
    `CREATE TABLE "webflow_contents" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "slug" text NOT NULL, "page_route" text NOT NULL, "caption" text, "category" text, "image" text, "name" text, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_webflow_contents" PRIMARY KEY ("id"))`,
    `CREATE UNIQUE INDEX "uq_webflow_contents_slug" ON "webflow_contents" ("slug")`,
    `CREATE UNIQUE INDEX "uq_webflow_contents_page_route" ON "webflow_contents" ("page_route")`,
  ];

  protected readonly downStatements = [
    'DROP TABLE "webflow_contents"',
    'DROP TABLE "registrations"',
    'DROP TABLE "referral_codes"',
  ];
}
