import { SqlMigration } from '../sql-migration.js';

/**
 * The sign-in authority (src/sign-in/login/sign-in-authority.ts):
 * - a token remembers whether a tenant's authenticator (a domain's SAML IdP) vouched for its sign-in, so an
 *   account change that reaches beyond that tenant asks for the service's own sign-in (AccountChangeStep), and
 *   renewals keep the mark. A live login token minted before this mark cannot be told from one a tenant's
 *   IdP vouched for (those claimed `is_mfa_authenticated` on the IdP's word), so every live login token
 *   loses its second-factor mark and its sign-in time: the session keeps working, and its next account
 *   change (or OAuth approval where a factor is owed) asks for a fresh sign-in.
 * - a user's SSO identity remembers whether the person linked it themselves (from a sign-in of their own):
 *   only such a link lets a tenant's IdP sign in an account that tenant does not own. Existing links were set
 *   by administrators.
 */
export class SignInAuthority1795700700000 extends SqlMigration {
  name = 'SignInAuthority1795700700000';

  protected readonly upStatements = [
    'ALTER TABLE "tokens" ADD "vouched_by_tenant" boolean NOT NULL DEFAULT false',
    'ALTER TABLE "user_saml_identities" ADD "linked_by_self" boolean NOT NULL DEFAULT false',
    `UPDATE "tokens" SET "is_mfa_authenticated" = false, "auth_time" = NULL
        WHERE "kind" = 'LOGIN' AND "revoked_at" IS NULL AND "expires" > now()`,
  ];

  protected readonly downStatements = [
    'ALTER TABLE "user_saml_identities" DROP COLUMN "linked_by_self"',
    'ALTER TABLE "tokens" DROP COLUMN "vouched_by_tenant"',
  ];
}
