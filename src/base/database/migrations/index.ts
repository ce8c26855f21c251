// Maintained by scripts/migration-generate.ts: every migration, oldest first.
// Migrations are raw SQL by nature (DDL and data steps, the schema's own history): exempt from the one-raw-query-per-repository rule.
import { Initial1795262043991 } from './1795262043991-initial.js';
import { UsersInvitations1795262401223 } from './1795262401223-users-invitations.js';
import { OAuthGrants1795263487518 } from './1795263487518-oauth-grants.js';
import { AdminPerDomain1795263606252 } from './1795263606252-admin-per-domain.js';
import { CredentialCeilings1795263800000 } from './1795263800000-credential-ceilings.js';
import { PendingInvitations1795263900000 } from './1795263900000-pending-invitations.js';
import { MailOutboxSealed1795264000000 } from './1795264000000-mail-outbox-sealed.js';
import { UserType1795264100000 } from './1795264100000-user-type.js';
import { Webhooks1795264200000 } from './1795264200000-webhooks.js';
import { MailDelivery1795264300000 } from './1795264300000-mail-delivery.js';
import { PasswordChecks1795264400000 } from './1795264400000-password-checks.js';
import { GuessingDefence1795264500000 } from './1795264500000-guessing-defence.js';
import { SecondFactors1795264600000 } from './1795264600000-second-factors.js';
import { SystemDomainAdmin1795264700000 } from './1795264700000-system-domain-admin.js';
import { Onboarding1795264800000 } from './1795264800000-onboarding.js';
import { Marketplace1795264900000 } from './1795264900000-marketplace.js';
import { InvitationType1795265000000 } from './1795265000000-invitation-type.js';
import { OAuthMfa1795265100000 } from './1795265100000-oauth-mfa.js';
import { MailRecipientLimit1795265200000 } from './1795265200000-mail-recipient-limit.js';
import { TokenAuthTime1795266000000 } from './1795266000000-token-auth-time.js';
import { SamlSso1795688993560 } from './1795688993560-saml-sso.js';
import { AssetsMetadata1795689010077 } from './1795689010077-assets-metadata.js';
import { FilesJobs1795700100000 } from './1795700100000-files-jobs.js';
import { TeamsRoleGroups1795700200000 } from './1795700200000-teams-role-groups.js';
import { UserPhotos1795700210000 } from './1795700210000-user-photos.js';
import { AuditEvents1795700300000 } from './1795700300000-audit-events.js';
import { DomainCascade1795700500000 } from './1795700500000-domain-cascade.js';
import { InvitationLinks1795700600000 } from './1795700600000-invitation-links.js';
import { UserSamlIdentities1795700610000 } from './1795700610000-user-saml-identities.js';
import { PartnerDomainAccess1795700620000 } from './1795700620000-partner-domain-access.js';
import { PrimaryGroup1795700630000 } from './1795700630000-primary-group.js';
import { SignInAuthority1795700700000 } from './1795700700000-sign-in-authority.js';
import { DomainVerification1795700800000 } from './1795700800000-domain-verification.js';
import { OpenIdConnect1795875450301 } from './1795875450301-open-id-connect.js';
import { FederatedSignIn1795880140850 } from './1795880140850-federated-sign-in.js';
import { Passkeys1795891139907 } from './1795891139907-passkeys.js';
import { ScimProfiles1795901644869 } from './1795901644869-scim-profiles.js';
import { AssetAclsUserRead1795913531899 } from './1795913531899-asset-acls-user-read.js';
import { Collections1795920882053 } from './1795920882053-collections.js';
import { MetadataFields1795920989626 } from './1795920989626-metadata-fields.js';
import { JobsPublished1795930000000 } from './1795930000000-jobs-published.js';
import { DomainFeatureParametersE2e1795931000000 } from './1795931000000-domain-feature-parameters-e2e.js';
import { KeyframeResolution1795932000000 } from './1795932000000-keyframe-resolution.js';
import { Proxies1795934500000 } from './1795934500000-proxies.js';

export const MIGRATIONS = [
  Initial1795262043991,
  UsersInvitations1795262401223,
  OAuthGrants1795263487518,
  AdminPerDomain1795263606252,
  CredentialCeilings1795263800000,
  PendingInvitations1795263900000,
  MailOutboxSealed1795264000000,
  UserType1795264100000,
  Webhooks1795264200000,
  MailDelivery1795264300000,
  PasswordChecks1795264400000,
  GuessingDefence1795264500000,
  SecondFactors1795264600000,
  SystemDomainAdmin1795264700000,
  Onboarding1795264800000,
  Marketplace1795264900000,
  InvitationType1795265000000,
  OAuthMfa1795265100000,
  MailRecipientLimit1795265200000,
  TokenAuthTime1795266000000,
  SamlSso1795688993560,
  AssetsMetadata1795689010077,
  FilesJobs1795700100000,
  TeamsRoleGroups1795700200000,
  UserPhotos1795700210000,
  AuditEvents1795700300000,
  DomainCascade1795700500000,
  InvitationLinks1795700600000,
  UserSamlIdentities1795700610000,
  PartnerDomainAccess1795700620000,
  PrimaryGroup1795700630000,
  SignInAuthority1795700700000,
  DomainVerification1795700800000,
  OpenIdConnect1795875450301,
  FederatedSignIn1795880140850,
  Passkeys1795891139907,
  ScimProfiles1795901644869,
  AssetAclsUserRead1795913531899,
  Collections1795920882053,
  MetadataFields1795920989626,
  JobsPublished1795930000000,
  DomainFeatureParametersE2e1795931000000,
  KeyframeResolution1795932000000,
  Proxies1795934500000,
];
