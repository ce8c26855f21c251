import { AppsModule } from '../credentials/apps/apps.module.js';
import { OAuthModule } from '../sign-in/oauth/oauth.module.js';
import { PasswordsModule } from '../accounts/passwords/passwords.module.js';
import { GroupsModule } from '../accounts/groups/groups.module.js';
import { TeamsModule } from '../accounts/teams/teams.module.js';
import { UserExtrasModule } from '../accounts/users/user-extras.module.js';
import { InvitationsModule } from '../sign-in/invitations/invitations.module.js';
import { UsersModule } from '../accounts/users/users.module.js';
import { WebhooksModule } from '../delivery/webhooks/webhooks.module.js';
import { MfaModule } from '../sign-in/mfa/mfa.module.js';
import { PasskeysModule } from '../sign-in/passkeys/passkeys.module.js';
import { MarketplaceModule } from '../sign-in/marketplace/marketplace.module.js';
import { DomainScheduleModule } from '../accounts/system-domains/domain-schedule.module.js';
import { SystemDomainAdminModule } from '../accounts/system-domains/system-domains.module.js';
import { OnboardingModule } from '../sign-in/onboarding/onboarding.module.js';
import { AssetsModule } from '../platform/assets/assets.module.js';
import { MetadataModule } from '../platform/metadata/metadata.module.js';
import { SearchModule } from '../platform/search/search.module.js';
import { IdentityProvidersModule } from '../sign-in/identity-providers/identity-providers.module.js';
import { DirectoriesModule } from '../sign-in/directories/directories.module.js';
import { OidcProvidersModule } from '../sign-in/oidc-providers/oidc-providers.module.js';
import { JobsModule } from '../platform/jobs/jobs.module.js';
import { FilesModule } from '../platform/files/files.module.js';
import { AuditModule } from '../delivery/audit/audit.module.js';
import { MetricsModule } from '../delivery/metrics/metrics.module.js';
import { ScimModule } from '../sign-in/scim/scim.module.js';

/** Feature modules mounted by the app; each new feature registers here. */
export const FEATURE_MODULES = [
  AppsModule,
  // before UsersModule and GroupsModule: its fixed paths under /v1/groups/ come before their {id} routes
  TeamsModule,
  // before the users modules: users/invite/register/ and the like must not reach their {user_id} routes
  InvitationsModule,
  // before the users modules: users/current/webauthn/ must not reach users/{user_id}/webauthn/
  PasskeysModule,
  UserExtrasModule,
  UsersModule,
  GroupsModule,
  OAuthModule,
  WebhooksModule,
  MfaModule,
  PasswordsModule,
  MarketplaceModule,
  DomainScheduleModule,
  AssetsModule,
  MetadataModule,
  SearchModule,
  IdentityProvidersModule,
  DirectoriesModule,
  OidcProvidersModule,
  ScimModule,
  JobsModule,
  FilesModule,
  AuditModule,
  MetricsModule,
  // keep last: its {id} routes under /v1/system_domains/ must come after fixed paths other modules serve there
  // (OnboardingModule's POST /v1/system_domains/referral_code/{code}/ goes BEFORE this line)
  OnboardingModule,
  SystemDomainAdminModule,
];
