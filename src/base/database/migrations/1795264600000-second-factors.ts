import { SqlMigration } from '../sql-migration.js';

/**
 * Second factors: a user's TOTP seed (sealed), the last time step accepted (no replay), MAIL_2SV opt-in and
 * hashed recovery codes; mailed one-time codes (hashed); each domain's policy (mfa_required, mfa_methods).
 */
export class SecondFactors1795264600000 extends SqlMigration {
  name = 'SecondFactors1795264600000';

  protected readonly upStatements = [
    `CREATE TABLE "user_mfa" ("user_id" uuid NOT NULL, "totp_secret" text, "totp_confirmed_at" TIMESTAMP WITH TIME ZONE, "totp_last_step" bigint, "mail_2sv_enabled" boolean NOT NULL DEFAULT false, "recovery_code_hashes" text array NOT NULL DEFAULT '{}', "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_user_mfa" PRIMARY KEY ("user_id"))`,
    `ALTER TABLE "user_mfa" ADD CONSTRAINT "FK_user_mfa_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    `CREATE TABLE "mail_otp_codes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "code_hash" text NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_mail_otp_codes" PRIMARY KEY ("id"))`,
    `CREATE INDEX "ix_mail_otp_codes_user" ON "mail_otp_codes" ("user_id", "code_hash") `,
    `ALTER TABLE "mail_otp_codes" ADD CONSTRAINT "FK_mail_otp_codes_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    `ALTER TABLE "system_domains" ADD "mfa_required" boolean NOT NULL DEFAULT false`,
    `ALTER TABLE "system_domains" ADD "mfa_methods" text array NOT NULL DEFAULT '{TOTP,MAIL_2SV}'`,
  ];

  protected readonly downStatements = [
    'ALTER TABLE "system_domains" DROP COLUMN "mfa_methods"',
    'ALTER TABLE "system_domains" DROP COLUMN "mfa_required"',
    'DROP TABLE "mail_otp_codes"',
    'DROP TABLE "user_mfa"',
  ];
}
