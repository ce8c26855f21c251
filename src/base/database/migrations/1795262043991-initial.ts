import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795262043991 implements MigrationInterface {
  name = 'Initial1795262043991';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "system_domains" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" text NOT NULL, "base_url" text NOT NULL, "description" text, "status" text NOT NULL DEFAULT \'ACTIVE\', "type" text NOT NULL DEFAULT \'CUSTOMER\', "billing_tier" text, "billing_limits" jsonb, "industry" text, "is_plg" boolean NOT NULL DEFAULT false, "disable_cc_purchase" boolean NOT NULL DEFAULT false, "has_preloaded_assets" boolean NOT NULL DEFAULT false, "contract_end_date" TIMESTAMP WITH TIME ZONE, "freeze_date" TIMESTAMP WITH TIME ZONE, "deactivate_date" TIMESTAMP WITH TIME ZONE, "country" text, "creating_user_id" uuid, "custom_terms" boolean NOT NULL DEFAULT false, "disable_billing_page" boolean NOT NULL DEFAULT false, "do_not_charge_edge_transcoder" boolean NOT NULL DEFAULT false, "do_not_charge_remote_proxies" boolean NOT NULL DEFAULT false, "do_not_charge_shield" boolean NOT NULL DEFAULT false, "invoice_end_of_month" boolean NOT NULL DEFAULT false, "is_template" boolean NOT NULL DEFAULT false, "discount_percent" double precision, "features" text array NOT NULL DEFAULT \'{}\', "marketplace_customer_id" text, "marketplace_entitlement_id" text, "billing_customer_id" text, "billing_subscription_id" text, "payments_id" text, "crm_id" text, "price_list" text, "primary_region" text, "referral_code" text, "warning_message" text, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_72807ccdaceb0d2535cfad24a05" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email" text NOT NULL, "first_name" text, "last_name" text, "password_hash" text, "status" text NOT NULL DEFAULT \'ACTIVE\', "is_admin" boolean NOT NULL DEFAULT false, "is_super_admin" boolean NOT NULL DEFAULT false, "system_domain_id" uuid NOT NULL, "last_login" TIMESTAMP WITH TIME ZONE, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "uq_users_email" ON "users"  ("email") ');
    await queryRunner.query(
      'CREATE TABLE "apps" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "name" text NOT NULL, "description" text, "url" text, "default_user_id" uuid, "type" text NOT NULL, "oauth_client_type" text, "allowed_scopes" text array NOT NULL DEFAULT \'{}\', "redirect_uris" text array NOT NULL DEFAULT \'{}\', "allowed_origins" text array NOT NULL DEFAULT \'{}\', "client_secret_hash" text, "is_builtin" boolean NOT NULL DEFAULT false, "created_by_user_id" uuid, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c5121fda0f8268f1f7f84134e19" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_apps_domain" ON "apps"  ("system_domain_id", "id") ');
    await queryRunner.query(
      'CREATE TABLE "approved_app_instances" ("id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "app_id" uuid NOT NULL, "user_id" uuid NOT NULL, "token_id" uuid, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_288985b018b417371f58ecd2f2a" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "external_auth_requests" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "secret_hash" text NOT NULL, "system_domain_id" uuid NOT NULL, "app_id" uuid NOT NULL, "user_id" uuid NOT NULL, "redirect_info" jsonb, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "token_id" uuid, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_1f09d959997a2335c0eddb80783" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_external_auth_secret" ON "external_auth_requests"  ("secret_hash") ',
    );
    await queryRunner.query(
      'CREATE TABLE "groups" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "name" text NOT NULL, "description" text, "roles" text array NOT NULL DEFAULT \'{}\', "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_659d1483316afb28afd3a90646e" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_groups_domain_name" ON "groups"  ("system_domain_id", "name") ',
    );
    await queryRunner.query(
      'CREATE TABLE "group_members" ("group_id" uuid NOT NULL, "user_id" uuid NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_f5939ee0ad233ad35e03f5c65c1" PRIMARY KEY ("group_id", "user_id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_group_members_user" ON "group_members"  ("user_id") ');
    await queryRunner.query(
      'CREATE TABLE "signing_keys" ("id" text NOT NULL, "algorithm" text NOT NULL, "public_key_pem" text NOT NULL, "private_key_encrypted" text NOT NULL, "status" text NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_retired" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_ab7d78cf6e61dc3904133b4cd55" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "tokens" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "system_domain_id" uuid NOT NULL, "user_id" uuid NOT NULL, "app_id" uuid NOT NULL, "kind" text NOT NULL, "scopes" text array, "token_hash" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "last_used_at" TIMESTAMP WITH TIME ZONE, "is_mfa_authenticated" boolean NOT NULL DEFAULT false, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3001e89ada36263dabf1fb6210a" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "ix_tokens_app" ON "tokens"  ("app_id", "id") ');
    await queryRunner.query('CREATE INDEX "ix_tokens_user" ON "tokens"  ("user_id", "id") ');
    await queryRunner.query(
      'CREATE TABLE "user_system_domains" ("user_id" uuid NOT NULL, "system_domain_id" uuid NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_916632d4a3e340cfba205818424" PRIMARY KEY ("user_id", "system_domain_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_user_system_domains_domain" ON "user_system_domains"  ("system_domain_id") ',
    );
    await queryRunner.query(
      'ALTER TABLE "users" ADD CONSTRAINT "FK_28147f21a6c1a85e68552a86774" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE RESTRICT ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "apps" ADD CONSTRAINT "FK_6382c1689331163ae4677c549e6" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "apps" ADD CONSTRAINT "FK_65580fe60a9a01f0146d94b108f" FOREIGN KEY ("default_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "approved_app_instances" ADD CONSTRAINT "FK_7699e7f867b5fd0b2063bbbea0b" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "approved_app_instances" ADD CONSTRAINT "FK_7a0c5077f7372edf896959b447a" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "external_auth_requests" ADD CONSTRAINT "FK_25e4a4569a13a183d221195fdf3" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "external_auth_requests" ADD CONSTRAINT "FK_0978019e4a45a7464c1442601bb" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "groups" ADD CONSTRAINT "FK_b94c1a4195a20320a2e8242235b" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "group_members" ADD CONSTRAINT "FK_2c840df5db52dc6b4a1b0b69c6e" FOREIGN KEY ("group_id") REFERENCES "groups"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "group_members" ADD CONSTRAINT "FK_20a555b299f75843aa53ff8b0ee" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "tokens" ADD CONSTRAINT "FK_653abf9924c177c9d071e37001f" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "tokens" ADD CONSTRAINT "FK_8769073e38c365f315426554ca5" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "tokens" ADD CONSTRAINT "FK_91577053aa0ba6defbe6dd300e1" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "user_system_domains" ADD CONSTRAINT "FK_0770ebe0ccd85d556e692c72e7c" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "user_system_domains" ADD CONSTRAINT "FK_e4a0171c012a079df9bec8f6875" FOREIGN KEY ("system_domain_id") REFERENCES "system_domains"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "user_system_domains" DROP CONSTRAINT "FK_e4a0171c012a079df9bec8f6875"',
    );
    await queryRunner.query(
      'ALTER TABLE "user_system_domains" DROP CONSTRAINT "FK_0770ebe0ccd85d556e692c72e7c"',
    );
    await queryRunner.query('ALTER TABLE "tokens" DROP CONSTRAINT "FK_91577053aa0ba6defbe6dd300e1"');
    await queryRunner.query('ALTER TABLE "tokens" DROP CONSTRAINT "FK_8769073e38c365f315426554ca5"');
    await queryRunner.query('ALTER TABLE "tokens" DROP CONSTRAINT "FK_653abf9924c177c9d071e37001f"');
    await queryRunner.query('ALTER TABLE "group_members" DROP CONSTRAINT "FK_20a555b299f75843aa53ff8b0ee"');
    await queryRunner.query('ALTER TABLE "group_members" DROP CONSTRAINT "FK_2c840df5db52dc6b4a1b0b69c6e"');
    await queryRunner.query('ALTER TABLE "groups" DROP CONSTRAINT "FK_b94c1a4195a20320a2e8242235b"');
    await queryRunner.query(
      'ALTER TABLE "external_auth_requests" DROP CONSTRAINT "FK_0978019e4a45a7464c1442601bb"',
    );
    await queryRunner.query(
      'ALTER TABLE "external_auth_requests" DROP CONSTRAINT "FK_25e4a4569a13a183d221195fdf3"',
    );
    await queryRunner.query(
      'ALTER TABLE "approved_app_instances" DROP CONSTRAINT "FK_7a0c5077f7372edf896959b447a"',
    );
    await queryRunner.query(
      'ALTER TABLE "approved_app_instances" DROP CONSTRAINT "FK_7699e7f867b5fd0b2063bbbea0b"',
    );
    await queryRunner.query('ALTER TABLE "apps" DROP CONSTRAINT "FK_65580fe60a9a01f0146d94b108f"');
    await queryRunner.query('ALTER TABLE "apps" DROP CONSTRAINT "FK_6382c1689331163ae4677c549e6"');
    await queryRunner.query('ALTER TABLE "users" DROP CONSTRAINT "FK_28147f21a6c1a85e68552a86774"');
    await queryRunner.query('DROP INDEX "public"."ix_user_system_domains_domain"');
    await queryRunner.query('DROP TABLE "user_system_domains"');
    await queryRunner.query('DROP INDEX "public"."ix_tokens_user"');
    await queryRunner.query('DROP INDEX "public"."ix_tokens_app"');
    await queryRunner.query('DROP TABLE "tokens"');
    await queryRunner.query('DROP TABLE "signing_keys"');
    await queryRunner.query('DROP INDEX "public"."ix_group_members_user"');
    await queryRunner.query('DROP TABLE "group_members"');
    await queryRunner.query('DROP INDEX "public"."uq_groups_domain_name"');
    await queryRunner.query('DROP TABLE "groups"');
    await queryRunner.query('DROP INDEX "public"."uq_external_auth_secret"');
    await queryRunner.query('DROP TABLE "external_auth_requests"');
    await queryRunner.query('DROP TABLE "approved_app_instances"');
    await queryRunner.query('DROP INDEX "public"."ix_apps_domain"');
    await queryRunner.query('DROP TABLE "apps"');
    await queryRunner.query('DROP INDEX "public"."uq_users_email"');
    await queryRunner.query('DROP TABLE "users"');
    await queryRunner.query('DROP TABLE "system_domains"');
  }
}
