import { SqlMigration } from '../sql-migration.js';

/**
 * Cloud-marketplace signup (issue 11 item 7): verified marketplace tokens (one per cloud and `jti`) and the
 * single-use signup nonces they were exchanged for (SHA-256 only); the consuming domain is kept, so a
 * domain's marketplace cloud can be read back. A deleted domain leaves its nonces unlinked.
 */
export class Marketplace1795264900000 extends SqlMigration {
  name = 'Marketplace1795264900000';

  protected readonly upStatements = [
    'CREATE TABLE "marketplace_nonces" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "cloud" text NOT NULL, "jti" text NOT NULL, "nonce_sha256" text NOT NULL, "customer_id" text NOT NULL, "entitlement_id" text NOT NULL, "token_expires" TIMESTAMP WITH TIME ZONE NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "system_domain_id" uuid, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8ca27d323e57c777847346f87cd" PRIMARY KEY ("id"))',
    'CREATE UNIQUE INDEX "uq_marketplace_nonces_secret" ON "marketplace_nonces" ("nonce_sha256") ',
    'CREATE INDEX "ix_marketplace_nonces_domain" ON "marketplace_nonces" ("system_domain_id") ',
    'CREATE UNIQUE INDEX "uq_marketplace_nonces_jti" ON "marketplace_nonces" ("cloud", "jti") ',
    'ALTER TABLE "marketplace_nonces" ADD CONSTRAINT "FK_8ba17b371630b328b0cb4e7c334" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "marketplace_nonces" DROP CONSTRAINT "FK_8ba17b371630b328b0cb4e7c334"',
    'DROP INDEX "public"."uq_marketplace_nonces_jti"',
    'DROP INDEX "public"."ix_marketplace_nonces_domain"',
    'DROP INDEX "public"."uq_marketplace_nonces_secret"',
    'DROP TABLE "marketplace_nonces"',
  ];
}
