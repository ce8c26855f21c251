import { AppsModule } from './apps/apps.module.js';
import { OAuthModule } from './oauth/oauth.module.js';
import { PasswordsModule } from './passwords/passwords.module.js';
import { GroupsModule } from './groups/groups.module.js';
import { TeamsModule } from './teams/teams.module.js';
import { UserExtrasModule } from './users/user-extras.module.js';
import { InvitationsModule } from './invitations/invitations.module.js';
import { UsersModule } from './users/users.module.js';
import { WebhooksModule } from './webhooks/webhooks.module.js';
import { MfaModule } from './mfa/mfa.module.js';
import { MarketplaceModule } from './marketplace/marketplace.module.js';
import { DomainScheduleModule } from './system-domains/domain-schedule.module.js';
import { SystemDomainAdminModule } from './system-domains/system-domains.module.js';
import { OnboardingModule } from './onboarding/onboarding.module.js';
import { AssetsModule } from './assets/assets.module.js';
import { MetadataModule } from './metadata/metadata.module.js';
import { SearchModule } from './search/search.module.js';
import { IdentityProvidersModule } from './identity-providers/identity-providers.module.js';
import { JobsModule } from './jobs/jobs.module.js';
import { FilesModule } from './files/files.module.js';
import { AuditModule } from './audit/audit.module.js';
import { MetricsModule } from './metrics/metrics.module.js';

/** Feature modules mounted by the app; each new feature registers here. */
export const FEATURE_MODULES = [
  AppsModule,
  // before UsersModule and GroupsModule: its fixed paths under /v1/groups/ come before their {id} routes
  TeamsModule,
  // before the users modules: users/invite/register/ and the like must not reach their {user_id} routes
  InvitationsModule,
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
  JobsModule,
  FilesModule,
  AuditModule,
  MetricsModule,
  // keep last: its {id} routes under /v1/system_domains/ must come after fixed paths other modules serve there
  // (OnboardingModule's POST /v1/system_domains/referral_code/{code}/ goes BEFORE this line)
  OnboardingModule,
  SystemDomainAdminModule,
];
