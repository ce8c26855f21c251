import { SqlMigration } from '../sql-migration.js';

/**
 * An OAuth authorization remembers whether the sign-in that approved it passed a second factor, so its access
 * tokens (through every refresh) report `is_mfa_authenticated` as the login token did.
 */
export class OAuthMfa1795265100000 extends SqlMigration {
  name = 'OAuthMfa1795265100000';

  protected readonly upStatements = [
    'ALTER TABLE "oauth_authorization_codes" ADD "is_mfa_authenticated" boolean NOT NULL DEFAULT false',
    'ALTER TABLE "oauth_refresh_tokens" ADD "is_mfa_authenticated" boolean NOT NULL DEFAULT false',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "oauth_refresh_tokens" DROP COLUMN "is_mfa_authenticated"',
    'ALTER TABLE "oauth_authorization_codes" DROP COLUMN "is_mfa_authenticated"',
  ];
}
