import { SqlMigration } from '../sql-migration.js';

export class OAuthGrants1795263487518 extends SqlMigration {
  name = 'OAuthGrants1795263487518';

  protected readonly upStatements = [
    'CREATE TABLE "oauth_authorization_codes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "code_hash" text NOT NULL, "app_id" uuid NOT NULL, "user_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "redirect_uri" text NOT NULL, "scopes" text array NOT NULL, "code_challenge" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "grant_id" uuid NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_441350d3fce3606534fbb2c1197" PRIMARY KEY ("id"))',
    'CREATE UNIQUE INDEX "uq_oauth_codes_hash" ON "oauth_authorization_codes"  ("code_hash") ',
    'CREATE TABLE "oauth_refresh_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "token_hash" text NOT NULL, "grant_id" uuid NOT NULL, "app_id" uuid NOT NULL, "user_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "scopes" text array NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "access_token_id" uuid, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6051e97f5024636e53749cfdc80" PRIMARY KEY ("id"))',
    'CREATE UNIQUE INDEX "uq_oauth_refresh_hash" ON "oauth_refresh_tokens"  ("token_hash") ',
    'CREATE INDEX "ix_oauth_refresh_grant" ON "oauth_refresh_tokens"  ("grant_id") ',
    'ALTER TABLE "tokens" ADD "grant_id" uuid',
    'CREATE INDEX "ix_tokens_grant" ON "tokens"  ("grant_id") ',
    'ALTER TABLE "oauth_authorization_codes" ADD CONSTRAINT "FK_e7c26f05f40fd78c69ac62726ca" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "oauth_authorization_codes" ADD CONSTRAINT "FK_1b5d11edec13074db58972ed81e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "oauth_refresh_tokens" ADD CONSTRAINT "FK_1e8741cb8dc896a772b0aca4bb7" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "oauth_refresh_tokens" ADD CONSTRAINT "FK_a7f0966fdf948cf9045ab88d479" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "oauth_refresh_tokens" DROP CONSTRAINT "FK_a7f0966fdf948cf9045ab88d479"',
    'ALTER TABLE "oauth_refresh_tokens" DROP CONSTRAINT "FK_1e8741cb8dc896a772b0aca4bb7"',
    'ALTER TABLE "oauth_authorization_codes" DROP CONSTRAINT "FK_1b5d11edec13074db58972ed81e"',
    'ALTER TABLE "oauth_authorization_codes" DROP CONSTRAINT "FK_e7c26f05f40fd78c69ac62726ca"',
    'DROP INDEX "public"."ix_tokens_grant"',
    'ALTER TABLE "tokens" DROP COLUMN "grant_id"',
    'DROP INDEX "public"."ix_oauth_refresh_grant"',
    'DROP INDEX "public"."uq_oauth_refresh_hash"',
    'DROP TABLE "oauth_refresh_tokens"',
    'DROP INDEX "public"."uq_oauth_codes_hash"',
    'DROP TABLE "oauth_authorization_codes"',
  ];
}
