import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Passkeys (docs/passkeys.md): `passkeys` (an account's WebAuthn credentials: id, COSE public key, counter),
 * `webauthn_user_handles` (the random handle an account is known to authenticators by) and
 * `webauthn_challenges` (single-use ceremony challenges, by hash). A domain's second-factor methods gain
 * WEBAUTHN: new domains count passkeys by default, and so do the domains that never required a factor and
 * kept the old default list (a domain that requires a factor keeps the methods it has). A token records how
 * its person signed in where the marks do not tell (`tokens.amr`: a passkey), for OpenID Connect's `amr`.
 */
export class Passkeys1795891139907 implements MigrationInterface {
  name = 'Passkeys1795891139907';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "passkeys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "user_id" uuid NOT NULL, "credential_id" text NOT NULL, "public_key" bytea NOT NULL, "counter" bigint NOT NULL DEFAULT \'0\', "transports" text array NOT NULL DEFAULT \'{}\', "aaguid" text, "device_type" text NOT NULL, "backed_up" boolean NOT NULL DEFAULT false, "name" text NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used" TIMESTAMP WITH TIME ZONE, "flagged_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_passkeys" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_passkeys_credential_id" ON "passkeys"  ("credential_id") ',
    );
    await queryRunner.query('CREATE INDEX "ix_passkeys_user" ON "passkeys"  ("user_id", "date_created") ');
    await queryRunner.query(
      'CREATE TABLE "webauthn_user_handles" ("user_id" uuid NOT NULL, "handle" text NOT NULL, CONSTRAINT "PK_webauthn_user_handles" PRIMARY KEY ("user_id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "uq_webauthn_user_handles_handle" ON "webauthn_user_handles"  ("handle") ',
    );
    await queryRunner.query(
      'CREATE TABLE "webauthn_challenges" ("challenge_sha256" text NOT NULL, "ceremony" text NOT NULL, "user_id" uuid, "temp_token_id" uuid, "require_uv" boolean NOT NULL, "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_webauthn_challenges" PRIMARY KEY ("challenge_sha256"))',
    );
    await queryRunner.query(
      'CREATE INDEX "ix_webauthn_challenges_expires" ON "webauthn_challenges"  ("expires") ',
    );
    await queryRunner.query(
      'ALTER TABLE "system_domains" ALTER COLUMN "mfa_methods" SET DEFAULT \'{TOTP,MAIL_2SV,WEBAUTHN}\'',
    );
    await queryRunner.query(
      "UPDATE system_domains SET mfa_methods = '{TOTP,MAIL_2SV,WEBAUTHN}' WHERE NOT mfa_required AND mfa_methods = '{TOTP,MAIL_2SV}'",
    );
    await queryRunner.query('ALTER TABLE "tokens" ADD "amr" text array');
    await queryRunner.query(
      'ALTER TABLE "passkeys" ADD CONSTRAINT "FK_passkeys_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "webauthn_user_handles" ADD CONSTRAINT "FK_webauthn_user_handles_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
    await queryRunner.query(
      'ALTER TABLE "webauthn_challenges" ADD CONSTRAINT "FK_webauthn_challenges_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "tokens" DROP COLUMN "amr"');
    await queryRunner.query(
      'ALTER TABLE "webauthn_challenges" DROP CONSTRAINT "FK_webauthn_challenges_user"',
    );
    await queryRunner.query(
      'ALTER TABLE "webauthn_user_handles" DROP CONSTRAINT "FK_webauthn_user_handles_user"',
    );
    await queryRunner.query('ALTER TABLE "passkeys" DROP CONSTRAINT "FK_passkeys_user"');
    await queryRunner.query(
      "UPDATE system_domains SET mfa_methods = array_remove(mfa_methods, 'WEBAUTHN') WHERE mfa_methods <> '{WEBAUTHN}'",
    );
    await queryRunner.query(
      'ALTER TABLE "system_domains" ALTER COLUMN "mfa_methods" SET DEFAULT \'{TOTP,MAIL_2SV}\'',
    );
    await queryRunner.query('DROP INDEX "public"."ix_webauthn_challenges_expires"');
    await queryRunner.query('DROP TABLE "webauthn_challenges"');
    await queryRunner.query('DROP INDEX "public"."uq_webauthn_user_handles_handle"');
    await queryRunner.query('DROP TABLE "webauthn_user_handles"');
    await queryRunner.query('DROP INDEX "public"."ix_passkeys_user"');
    await queryRunner.query('DROP INDEX "public"."uq_passkeys_credential_id"');
    await queryRunner.query('DROP TABLE "passkeys"');
  }
}
