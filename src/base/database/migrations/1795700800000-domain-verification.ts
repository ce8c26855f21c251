import { SqlMigration } from '../sql-migration.js';

/**
 * Email-domain bindings are verified before they route anyone (docs/saml.md, Domain verification):
 * - `verified_at` (null: not verified) and `challenge_token`, the random value the DNS TXT record must carry;
 * - each system domain may claim a name (the key becomes the name and the domain), and one binding per name
 *   may be verified across all tenants (a partial unique index): a claim no longer blocks the name's owner.
 * Existing bindings routed people before this change, so they stay verified (the upgrade is their decision;
 * operators review them, docs/saml.md) with a token of their own (two random UUIDs' hex: 244 random bits,
 * from the database's strong random source) should they ever be verified again.
 */
export class DomainVerification1795700800000 extends SqlMigration {
  name = 'DomainVerification1795700800000';

  protected readonly upStatements = [
    'ALTER TABLE "identity_provider_domains" ADD "verified_at" TIMESTAMP WITH TIME ZONE',
    'ALTER TABLE "identity_provider_domains" ADD "challenge_token" text',
    `UPDATE "identity_provider_domains"
          SET "verified_at" = now(),
              "challenge_token" = replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`,
    'ALTER TABLE "identity_provider_domains" ALTER COLUMN "challenge_token" SET NOT NULL',
    'ALTER TABLE "identity_provider_domains" DROP CONSTRAINT "PK_484273560165949599e6614c9c4"',
    'ALTER TABLE "identity_provider_domains" ADD CONSTRAINT "PK_cee8e684157051e3f5a0cee7c69" PRIMARY KEY ("domain", "system_domain_id")',
    'CREATE UNIQUE INDEX "uq_identity_provider_domains_verified" ON "identity_provider_domains"  ("domain") WHERE "verified_at" IS NOT NULL',
  ];

  protected readonly downStatements = [
    // the earlier schema routes every binding: claims never verified must not start to
    'DELETE FROM "identity_provider_domains" WHERE "verified_at" IS NULL',
    'DROP INDEX "public"."uq_identity_provider_domains_verified"',
    'ALTER TABLE "identity_provider_domains" DROP CONSTRAINT "PK_cee8e684157051e3f5a0cee7c69"',
    'ALTER TABLE "identity_provider_domains" ADD CONSTRAINT "PK_484273560165949599e6614c9c4" PRIMARY KEY ("domain")',
    'ALTER TABLE "identity_provider_domains" DROP COLUMN "challenge_token"',
    'ALTER TABLE "identity_provider_domains" DROP COLUMN "verified_at"',
  ];
}
