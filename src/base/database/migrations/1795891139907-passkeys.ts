import { SqlMigration } from '../sql-migration.js';

/**
 * Passkeys (docs/passkeys.md): `passkeys` (an account's WebAuthn credentials: id, COSE public key, counter),
 * `webauthn_user_handles` (the random handle an account is known to authenticators by) and
 * `webauthn_challenges` (single-use ceremony challenges, by hash). A domain's second-factor methods gain
 * WEBAUTHN: new domains count passkeys by default, and so do the domains that never required a factor and
 * kept the old default list (a domain that requires a factor keeps the methods it has). A token records how
 * its person signed in where the marks do not tell (`tokens.amr`: a passkey), for OpenID Connect's `amr`.
 */
export class Passkeys1795891139907 extends SqlMigration {
  name = 'Passkeys1795891139907';

  protected readonly upStatements = [
    'CREATE TABLE "passkeys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "credential_id" text NOT NULL, "public_key" bytea NOT NULL, "counter" bigint NOT NULL DEFAULT \'0\', "transports" text array NOT NULL DEFAULT \'{}\', "aaguid" text, "device_type" text NOT NULL, "backed_up" boolean NOT NULL DEFAULT false, "name" text NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used" TIMESTAMP WITH TIME ZONE, "flagged_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_passkeys" PRIMARY KEY ("id"))',
    'CREATE UNIQUE INDEX "uq_passkeys_credential_id" ON "passkeys"  ("credential_id") ',
    'CREATE INDEX "ix_passkeys_user" ON "passkeys"  ("user_id", "date_created") ',
    'CREATE TABLE "webauthn_user_handles" ("user_id" uuid NOT NULL, "handle" text NOT NULL, CONSTRAINT "PK_webauthn_user_handles" PRIMARY KEY ("user_id"))',
    'CREATE UNIQUE INDEX "uq_webauthn_user_handles_handle" ON "webauthn_user_handles"  ("handle") ',
    'CREATE TABLE "webauthn_challenges" ("challenge_sha256" text NOT NULL, "ceremony" text NOT NULL, "user_id" uuid, "temp_token_id" uuid, "require_uv" boolean NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_webauthn_challenges" PRIMARY KEY ("challenge_sha256"))',
    'CREATE INDEX "ix_webauthn_challenges_expires" ON "webauthn_challenges"  ("expires") ',
    'ALTER TABLE "system_domains" ALTER COLUMN "mfa_methods" SET DEFAULT \'{TOTP,MAIL_2SV,WEBAUTHN}\'',
    "UPDATE system_domains SET mfa_methods = '{TOTP,MAIL_2SV,WEBAUTHN}' WHERE NOT mfa_required AND mfa_methods = '{TOTP,MAIL_2SV}'",
    'ALTER TABLE "tokens" ADD "amr" text array',
    'ALTER TABLE "passkeys" ADD CONSTRAINT "FK_passkeys_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "webauthn_user_handles" ADD CONSTRAINT "FK_webauthn_user_handles_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "webauthn_challenges" ADD CONSTRAINT "FK_webauthn_challenges_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "tokens" DROP COLUMN "amr"',
    'ALTER TABLE "webauthn_challenges" DROP CONSTRAINT "FK_webauthn_challenges_user"',
    'ALTER TABLE "webauthn_user_handles" DROP CONSTRAINT "FK_webauthn_user_handles_user"',
    'ALTER TABLE "passkeys" DROP CONSTRAINT "FK_passkeys_user"',
    "UPDATE system_domains SET mfa_methods = array_remove(mfa_methods, 'WEBAUTHN') WHERE mfa_methods <> '{WEBAUTHN}'",
    'ALTER TABLE "system_domains" ALTER COLUMN "mfa_methods" SET DEFAULT \'{TOTP,MAIL_2SV}\'',
    'DROP INDEX "public"."ix_webauthn_challenges_expires"',
    'DROP TABLE "webauthn_challenges"',
    'DROP INDEX "public"."uq_webauthn_user_handles_handle"',
    'DROP TABLE "webauthn_user_handles"',
    'DROP INDEX "public"."ix_passkeys_user"',
    'DROP INDEX "public"."uq_passkeys_credential_id"',
    'DROP TABLE "passkeys"',
  ];
}
