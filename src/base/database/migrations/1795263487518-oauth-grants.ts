import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OAuthGrants1795263487518 implements MigrationInterface {
  name = 'OAuthGrants1795263487518';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "oauth_authorization_codes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "code_hash" text NOT NULL, "app_id" uuid NOT NULL, "user_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "redirect_uri" text NOT NULL, "scopes" text array NOT NULL, "code_challenge" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "grant_id" uuid NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_441350d3fce3606534fbb2c1197" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_oauth_codes_hash" ON "oauth_authorization_codes"  ("code_hash") ',
    );
    await queryRunner.query(
      'CREATE TABLE "oauth_refresh_tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "token_hash" text NOT NULL, "grant_id" uuid NOT NULL, "app_id" uuid NOT NULL, "user_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "scopes" text array NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "access_token_id" uuid, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6051e97f5024636e53749cfdc80" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_oauth_refresh_hash" ON "oauth_refresh_tokens"  ("token_hash") ',
    );
    await queryRunner.query('CREATE INDEX "ix_oauth_refresh_grant" ON "oauth_refresh_tokens"  ("grant_id") ');
    await queryRunner.query('ALTER TABLE "tokens" ADD "grant_id" uuid');
    await queryRunner.query('CREATE INDEX "ix_tokens_grant" ON "tokens"  ("grant_id") ');
    await queryRunner.query(
      'ALTER TABLE "oauth_authorization_codes" ADD CONSTRAINT "FK_e7c26f05f40fd78c69ac62726ca" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "oauth_authorization_codes" ADD CONSTRAINT "FK_1b5d11edec13074db58972ed81e" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "oauth_refresh_tokens" ADD CONSTRAINT "FK_1e8741cb8dc896a772b0aca4bb7" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "oauth_refresh_tokens" ADD CONSTRAINT "FK_a7f0966fdf948cf9045ab88d479" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "oauth_refresh_tokens" DROP CONSTRAINT "FK_a7f0966fdf948cf9045ab88d479"',
    );
    await queryRunner.query(
      'ALTER TABLE "oauth_refresh_tokens" DROP CONSTRAINT "FK_1e8741cb8dc896a772b0aca4bb7"',
    );
    await queryRunner.query(
      'ALTER TABLE "oauth_authorization_codes" DROP CONSTRAINT "FK_1b5d11edec13074db58972ed81e"',
    );
    await queryRunner.query(
      'ALTER TABLE "oauth_authorization_codes" DROP CONSTRAINT "FK_e7c26f05f40fd78c69ac62726ca"',
    );
    await queryRunner.query('DROP INDEX "public"."ix_tokens_grant"');
    await queryRunner.query('ALTER TABLE "tokens" DROP COLUMN "grant_id"');
    await queryRunner.query('DROP INDEX "public"."ix_oauth_refresh_grant"');
    await queryRunner.query('DROP INDEX "public"."uq_oauth_refresh_hash"');
    await queryRunner.query('DROP TABLE "oauth_refresh_tokens"');
    await queryRunner.query('DROP INDEX "public"."uq_oauth_codes_hash"');
    await queryRunner.query('DROP TABLE "oauth_authorization_codes"');
  }
}
