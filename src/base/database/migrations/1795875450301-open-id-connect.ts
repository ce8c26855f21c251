import { SqlMigration } from '../sql-migration.js';

/**
 * OpenID Connect (docs/oauth.md, "Signing people in with OpenID Connect"):
 * - `oidc_grants`: per authorization with `openid`, the sign-in it came from (session, sid, nonce, auth_time,
 *   acr, amr), which every id_token of the grant reports and RP-initiated logout ends;
 * - `oauth_consents`: a person's remembered consent per app (same or fewer scopes skip the screen);
 * - `users.email_verified_at`: when the person last used a mailed link or code (`email_verified`); existing
 *   accounts start unproven (null), as nothing recorded it before;
 * - `apps.post_logout_redirect_uris`: where logout may return the browser.
 */
export class OpenIdConnect1795875450301 extends SqlMigration {
  name = 'OpenIdConnect1795875450301';

  protected readonly upStatements = [
    'CREATE TABLE "oidc_grants" ("grant_id" uuid NOT NULL, "app_id" uuid NOT NULL, "user_id" uuid NOT NULL, "session_id" uuid NOT NULL, "sid" text NOT NULL, "nonce" text, "auth_time" TIMESTAMP WITH TIME ZONE NOT NULL, "acr" text NOT NULL, "amr" text array NOT NULL, "date_created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7ce2b82c3d15a0a08e43973ac78" PRIMARY KEY ("grant_id"))',
    'CREATE INDEX "ix_oidc_grants_sid" ON "oidc_grants"  ("sid") ',
    'CREATE TABLE "oauth_consents" ("user_id" uuid NOT NULL, "app_id" uuid NOT NULL, "scopes" text array NOT NULL, "date_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_72a6962c9fd27ade50278c5da1b" PRIMARY KEY ("user_id", "app_id"))',
    'ALTER TABLE "users" ADD "email_verified_at" TIMESTAMP WITH TIME ZONE',
    'ALTER TABLE "apps" ADD "post_logout_redirect_uris" text array NOT NULL DEFAULT \'{}\'',
    'ALTER TABLE "oidc_grants" ADD CONSTRAINT "FK_b5824fdd70b30c0d7e7b83b02c6" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "oidc_grants" ADD CONSTRAINT "FK_6b63efe4a8492f638c170c73213" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "oauth_consents" ADD CONSTRAINT "FK_6b1ce29d22e910f696a5713b2a6" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    'ALTER TABLE "oauth_consents" ADD CONSTRAINT "FK_3a592b0e0c01c6f59529379f69c" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
  ];

  protected readonly downStatements = [
    'ALTER TABLE "oauth_consents" DROP CONSTRAINT "FK_3a592b0e0c01c6f59529379f69c"',
    'ALTER TABLE "oauth_consents" DROP CONSTRAINT "FK_6b1ce29d22e910f696a5713b2a6"',
    'ALTER TABLE "oidc_grants" DROP CONSTRAINT "FK_6b63efe4a8492f638c170c73213"',
    'ALTER TABLE "oidc_grants" DROP CONSTRAINT "FK_b5824fdd70b30c0d7e7b83b02c6"',
    'ALTER TABLE "apps" DROP COLUMN "post_logout_redirect_uris"',
    'ALTER TABLE "users" DROP COLUMN "email_verified_at"',
    'DROP TABLE "oauth_consents"',
    'DROP INDEX "public"."ix_oidc_grants_sid"',
    'DROP TABLE "oidc_grants"',
  ];
}
