import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An OAuth authorization remembers whether the sign-in that approved it passed a second factor, so its access
 * tokens (through every refresh) report `is_mfa_authenticated` as the login token did.
 */
export class OAuthMfa1795265100000 implements MigrationInterface {
  name = 'OAuthMfa1795265100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'ALTER TABLE "oauth_authorization_codes" ADD "is_mfa_authenticated" boolean NOT NULL DEFAULT false',
    );
    await queryRunner.query(
      'ALTER TABLE "oauth_refresh_tokens" ADD "is_mfa_authenticated" boolean NOT NULL DEFAULT false',
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "oauth_refresh_tokens" DROP COLUMN "is_mfa_authenticated"');
    await queryRunner.query('ALTER TABLE "oauth_authorization_codes" DROP COLUMN "is_mfa_authenticated"');
  }
}
