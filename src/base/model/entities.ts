import { AppInstanceEntity } from './app-instance.entity.js';
import { AppEntity } from './app.entity.js';
import { ExternalAuthEntity } from './external-auth.entity.js';
import { GroupMemberEntity } from './group-member.entity.js';
import { GroupEntity } from './group.entity.js';
import { GroupLogoEntity } from './group-logo.entity.js';
import { GroupMappingEntity } from './group-mapping.entity.js';
import { UserPhotoEntity } from './user-photo.entity.js';
import { LoginAttemptEntity } from './guessing-defence.entity.js';
import { SigningKeyEntity } from './signing-key.entity.js';
import { SystemDomainEntity } from './system-domain.entity.js';
import { TokenEntity } from './token.entity.js';
import { InvitationEntity } from './invitation.entity.js';
import { InvitationLinkEntity } from './invitation-link.entity.js';
import { UserSamlIdentityEntity } from './user-saml-identity.entity.js';
import { PartnerDomainAccessEntity } from './partner-domain-access.entity.js';
import { MailOutboxEntity } from './mail-outbox.entity.js';
import { PasswordResetEntity } from './password-reset.entity.js';
import { EmailLoginLinkEntity } from './email-login-link.entity.js';
import { UserSystemDomainEntity } from './user-system-domain.entity.js';
import { UserEntity } from './user.entity.js';
import { WebhookDeliveryEntity } from './webhook-delivery.entity.js';
import { WebhookEventEntity } from './webhook-event.entity.js';
import { WebhookEntity } from './webhook.entity.js';

import { AuthorizationCodeEntity } from './authorization-code.entity.js';
import { RefreshTokenEntity } from './refresh-token.entity.js';
import { MailOtpCodeEntity, UserMfaEntity } from './user-mfa.entity.js';
import { MarketplaceNonceEntity } from './marketplace-nonce.entity.js';
import { SystemDomainLogoEntity } from './logo.entity.js';
import { ReferralCodeEntity } from './referral-code.entity.js';
import { RegistrationEntity } from './registration.entity.js';
import { WebflowContentEntity } from './webflow-content.entity.js';
import { AssetEntity, AssetVersionEntity } from './asset.entity.js';
import { AssetAclEntity } from './asset-acl.entity.js';
import { CollectionAclEntity, CollectionContentEntity, CollectionEntity } from './collection.entity.js';
import {
  CollectionMetadataValueEntity,
  MetadataCategoryEntity,
  MetadataFieldEntity,
  MetadataValueEntity,
  MetadataViewEntity,
} from './metadata.entity.js';
import {
  IdentityProviderDomainEntity,
  IdentityProviderEntity,
  SamlAssertionIdEntity,
  SamlLoginCodeEntity,
  SamlRequestEntity,
} from './identity-provider.entity.js';
import { FileEntity, FileSetEntity, FileTaskEntity, FormatEntity, KeyframeEntity } from './file.entity.js';
import { StorageEntity } from './storage.entity.js';
import { ProxyEntity } from './proxy.entity.js';
import { JobEntity } from './job.entity.js';
import { AuditEventEntity } from './audit-event.entity.js';
import { OAuthConsentEntity, OidcGrantEntity } from './oidc.entity.js';
import {
  DirectoryEntity,
  OidcLoginCodeEntity,
  OidcLoginStateEntity,
  OidcProviderEntity,
} from './federation.entity.js';
import { PasskeyEntity, WebauthnChallengeEntity, WebauthnUserHandleEntity } from './passkey.entity.js';
import { ScimProfileEntity } from './scim-profile.entity.js';

export const ENTITIES = [
  AuthorizationCodeEntity,
  RefreshTokenEntity,
  OidcGrantEntity,
  OAuthConsentEntity,
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
  PasskeyEntity,
  ScimProfileEntity,
  WebauthnUserHandleEntity,
  WebauthnChallengeEntity,
  MarketplaceNonceEntity,
  SystemDomainLogoEntity,
  ReferralCodeEntity,
  RegistrationEntity,
  WebflowContentEntity,
  AssetEntity,
  AssetVersionEntity,
  AssetAclEntity,
  CollectionEntity,
  CollectionContentEntity,
  CollectionAclEntity,
  MetadataViewEntity,
  MetadataCategoryEntity,
  MetadataValueEntity,
  MetadataFieldEntity,
  CollectionMetadataValueEntity,
  IdentityProviderEntity,
  IdentityProviderDomainEntity,
  SamlRequestEntity,
  SamlAssertionIdEntity,
  SamlLoginCodeEntity,
  DirectoryEntity,
  OidcProviderEntity,
  OidcLoginStateEntity,
  OidcLoginCodeEntity,
  StorageEntity,
  FormatEntity,
  FileSetEntity,
  FileEntity,
  KeyframeEntity,
  FileTaskEntity,
  ProxyEntity,
  JobEntity,
  AuditEventEntity,
];
