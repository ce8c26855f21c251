import { ApiProperty } from '@nestjs/swagger';
import { PartialType } from '@nestjs/swagger';
import {
  BoolField,
  EmailField,
  EnumField,
  ObjectField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { IDP_TYPES } from '../../../base/model/identity-provider.entity.js';
import { MultiDomainUserSystemDto } from '../../../credentials/tokens/dto/token.dto.js';

const SETTINGS =
  'Shape depends on type. Common: idp_x509cert, cert_fingerprint, cert_fingerprint_algorithm, digest_algorithm, ' +
  'signature_algorithm, idp_entity_id, idp_sso_post_url, idp_sls_redirect_url, want_assertions_signed, ' +
  'want_messages_signed, name_id_encrypted, authn_requests_signed, allow_idp_initiated, jit_provisioning ' +
  '(booleans default false; want_assertions_signed defaults true), domain_name (read-only). VENDOR_A: ' +
  'vendor_a_client_id*, vendor_a_name*. VENDOR_B: vendor_b_client_id*, vendor_b_name*, vendor_b_region*. ' +
  'VENDOR_C: vendor_c_name*, vendor_c_app_id, vendor_c_sso, vendor_c_preview. GENERIC: idp_entity_id*, ' +
  'idp_sso_post_url*, name*, and idp_x509cert or cert_fingerprint.';

/** Body of POST /v1/auth/saml/idp/ (JSON; the same endpoint takes the IdP's metadata XML). */
export class CreateIdentityProviderDto {
  @EnumField(IDP_TYPES, { description: 'Three vendor-specific kinds plus GENERIC' })
  type!: (typeof IDP_TYPES)[number];
  @ObjectField({ description: SETTINGS }) settings!: Record<string, unknown>;
  @BoolField({ required: false, description: 'Log each decoded assertion of this IdP (never key material)' })
  verbose_logging?: boolean;
  @BoolField({ required: false, description: 'A disabled IdP signs no one in (default true)' })
  enabled?: boolean;
}

export class UpdateIdentityProviderDto extends PartialType(CreateIdentityProviderDto, {
  skipNullProperties: false,
}) {}

export class SamlSettingsDto {
  @ApiProperty({ description: 'The SP entity id (Audience) to enter at the IdP' }) sp_entity_id!: string;
  @ApiProperty({ description: 'Assertion consumer service URL (HTTP-POST binding)' }) acs_url!: string;
  @ApiProperty({ description: 'SP metadata XML, for IdPs that read it' }) metadata_url!: string;
  @ApiProperty() name_id_format!: string;
  @ApiProperty({ description: 'Where SP-initiated sign-in starts' }) sso_url!: string;
  @ApiProperty({ nullable: true, type: String, description: 'The SP certificate (signed AuthnRequests)' })
  sp_certificate!: string | null;
}

export class IdentityProviderDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true }) public_id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({ enum: IDP_TYPES }) type!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: SETTINGS })
  settings!: Record<string, unknown>;
  @ApiProperty({ type: SamlSettingsDto, readOnly: true }) saml_settings!: SamlSettingsDto;
  @ApiProperty() verbose_logging!: boolean;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({
    type: [String],
    readOnly: true,
    description: 'Email domains bound to this IdP; only verified ones route (domain_bindings)',
  })
  domains!: string[];
  @ApiProperty({
    type: () => [DomainBindingDto],
    readOnly: true,
    description: 'The same bindings with their verification: the TXT record to publish while unverified',
  })
  domain_bindings!: DomainBindingDto[];
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_modified!: string;
}

export class IdentityProviderListDto extends ListEnvelopeDto(IdentityProviderDto) {}

/** What idp/convert/ makes of an EntityDescriptor: the body to POST (or to edit first). */
export class ConvertedIdentityProviderDto {
  @ApiProperty({ enum: ['GENERIC'] }) type!: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) settings!: Record<string, unknown>;
}

export class DomainIdentityProviderMapDto {
  @StringField({ minLength: 1, maxLength: 253, description: 'An email domain name, e.g. example.com' })
  domain!: string;
  @UuidField({
    required: false,
    description: 'The SAML identity provider the name routes to (exactly one of the three authenticators)',
  })
  identity_provider_id?: string;
  @UuidField({ required: false, description: 'Or the directory the name routes to (directories/)' })
  directory_id?: string;
  @UuidField({ required: false, description: 'Or the OpenID provider the name routes to (oidc_providers/)' })
  oidc_provider_id?: string;
  @UuidField({ required: false, description: 'The authenticator’s system domain (read from it when absent)' })
  system_domain_id?: string;
  @BoolField({
    required: false,
    description:
      'Super administrators only: bind by decision, verified at once, also a name people of other domains ' +
      'or a super administrator use (403 for others)',
  })
  force?: boolean;
}

/** The DNS record that proves a binding: publish it, then POST domains/{domain}/verify/. */
export class DomainVerificationDto {
  @ApiProperty({ enum: ['TXT'] }) type!: 'TXT';
  @ApiProperty({ description: 'The record’s name: _portcullis-challenge.<domain>' }) name!: string;
  @ApiProperty({ description: 'The record’s value: portcullis-domain-verification=<token>' }) value!: string;
}

/** An email domain bound to an IdP, and whether it routes yet. */
export class DomainBindingDto {
  @ApiProperty() domain!: string;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'A SAML IdP, or null' })
  identity_provider_id!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'A directory, or null' })
  directory_id!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'An OpenID provider, or null' })
  oidc_provider_id!: string | null;
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
  @ApiProperty({ description: 'Only a verified binding routes people to the IdP and provisions them' })
  verified!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) verified_at!: string | null;
  @ApiProperty({
    type: DomainVerificationDto,
    nullable: true,
    description: 'While unverified: the TXT record to publish; null once verified',
  })
  verification!: DomainVerificationDto | null;
}

/** Body of POST domains/{domain}/verify/. */
export class VerifyDomainDto {
  @BoolField({
    required: false,
    description: 'Super administrators only: verify by decision, without the DNS record (403 for others)',
  })
  force?: boolean;
  @UuidField({
    required: false,
    description: 'Whose binding: the caller’s domain by default; another domain’s for super administrators',
  })
  system_domain_id?: string;
}

/** Query of DELETE domains/{domain}/. */
export class UnbindDomainQueryDto {
  @UuidField({
    required: false,
    description:
      'Whose binding: the caller’s domain by default; a super administrator without it removes the name’s ' +
      'bindings in every domain',
  })
  system_domain_id?: string;
}

export class SamlLoginDto {
  @EmailField() email!: string;
}

export class SamlUrlDto {
  @ApiProperty({ nullable: true, type: String }) url!: string | null;
}

export class SamlTokenRequestDto {
  @StringField({ minLength: 1, maxLength: 200, description: 'The single-use code the ACS redirect carried' })
  code!: string;
}

/** `multidomain/login/` answers the common list envelope (one page holding every entry). */
export class MultiDomainUserSystemListDto extends ListEnvelopeDto(MultiDomainUserSystemDto) {}
