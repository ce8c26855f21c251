import { AppInstanceEntity } from '../apps/app-instance.entity.js';
import { AppEntity } from '../apps/app.entity.js';
import { ExternalAuthEntity } from '../apps/external-auth.entity.js';
import { GroupMemberEntity } from '../groups/group-member.entity.js';
import { GroupEntity } from '../groups/group.entity.js';
import { GroupLogoEntity } from '../groups/group-logo.entity.js';
import { GroupMappingEntity } from '../groups/group-mapping.entity.js';
import { UserPhotoEntity } from '../users/user-photo.entity.js';
import { LoginAttemptEntity } from '../login/guessing-defence.entity.js';
import { SigningKeyEntity } from '../keys/signing-key.entity.js';
import { SystemDomainEntity } from '../system-domains/system-domain.entity.js';
import { TokenEntity } from '../tokens/token.entity.js';
import { InvitationEntity } from '../invitations/invitation.entity.js';
import { InvitationLinkEntity } from '../invitations/invitation-link.entity.js';
import { UserSamlIdentityEntity } from '../identity-providers/user-saml-identity.entity.js';
import { PartnerDomainAccessEntity } from '../users/partner-domain-access.entity.js';
import { MailOutboxEntity } from '../mail/mail-outbox.entity.js';
import { PasswordResetEntity } from '../passwords/password-reset.entity.js';
import { EmailLoginLinkEntity } from '../login/email-login-link.entity.js';
import { UserSystemDomainEntity } from '../users/user-system-domain.entity.js';
import { UserEntity } from '../users/user.entity.js';
import { WebhookDeliveryEntity } from '../webhooks/webhook-delivery.entity.js';
import { WebhookEventEntity } from '../webhooks/webhook-event.entity.js';
import { WebhookEntity } from '../webhooks/webhook.entity.js';

import { AuthorizationCodeEntity } from '../oauth/authorization-code.entity.js';
import { RefreshTokenEntity } from '../oauth/refresh-token.entity.js';
import { MailOtpCodeEntity, UserMfaEntity } from '../mfa/user-mfa.entity.js';
import { MarketplaceNonceEntity } from '../marketplace/marketplace-nonce.entity.js';
import { SystemDomainLogoEntity } from '../system-domains/logo.entity.js';
import { ReferralCodeEntity } from '../onboarding/referral-code.entity.js';
import { RegistrationEntity } from '../onboarding/registration.entity.js';
import { WebflowContentEntity } from '../onboarding/webflow-content.entity.js';
import { AssetEntity, AssetVersionEntity } from '../assets/asset.entity.js';
import { AssetAclEntity } from '../assets/asset-acl.entity.js';
import {
  MetadataCategoryEntity,
  MetadataValueEntity,
  MetadataViewEntity,
} from '../metadata/metadata.entity.js';
import {
  IdentityProviderDomainEntity,
  IdentityProviderEntity,
  SamlAssertionIdEntity,
  SamlLoginCodeEntity,
  SamlRequestEntity,
} from '../identity-providers/identity-provider.entity.js';
import { FileEntity, FileSetEntity, FileTaskEntity, FormatEntity, KeyframeEntity } from '../files/file.entity.js';
import { StorageEntity } from '../files/storage.entity.js';
import { JobEntity } from '../jobs/job.entity.js';
import { AuditEventEntity } from '../audit/audit-event.entity.js';

export const ENTITIES = [
  AuthorizationCodeEntity,
  RefreshTokenEntity,
  SystemDomainEntity,
  UserEntity,
  UserSystemDomainEntity,
  GroupEntity,
  GroupMemberEntity,
  GroupLogoEntity,
  GroupMappingEntity,
  UserPhotoEntity,
  AppEntity,
  TokenEntity,
  SigningKeyEntity,
  ExternalAuthEntity,
  AppInstanceEntity,
  InvitationEntity,
  InvitationLinkEntity,
  UserSamlIdentityEntity,
  PartnerDomainAccessEntity,
  MailOutboxEntity,
  PasswordResetEntity,
  EmailLoginLinkEntity,
  WebhookEntity,
  WebhookEventEntity,
  WebhookDeliveryEntity,
  LoginAttemptEntity,
  UserMfaEntity,
  MailOtpCodeEntity,
  MarketplaceNonceEntity,
  SystemDomainLogoEntity,
  ReferralCodeEntity,
  RegistrationEntity,
  WebflowContentEntity,
  AssetEntity,
  AssetVersionEntity,
  AssetAclEntity,
  MetadataViewEntity,
  MetadataCategoryEntity,
  MetadataValueEntity,
  IdentityProviderEntity,
  IdentityProviderDomainEntity,
  SamlRequestEntity,
  SamlAssertionIdEntity,
  SamlLoginCodeEntity,
  StorageEntity,
  FormatEntity,
  FileSetEntity,
  FileEntity,
  KeyframeEntity,
  FileTaskEntity,
  JobEntity,
  AuditEventEntity,
];
