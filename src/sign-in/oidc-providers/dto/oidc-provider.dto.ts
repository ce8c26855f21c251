import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { AuthenticatorSettingsField } from '../../federation/settings-field.js';
import {
  BoolField,
  EmailField,
  PasswordField,
  StringArrayField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';

/** The claims a provider names a person's parts in (defaults: the standard claims, and `groups`). */
export class OidcClaimsDto {
  @ApiProperty({ description: 'The email address (default email; email_verified must be true)' })
  email!: string;
  @ApiProperty({ description: 'First name (default given_name)' }) first_name!: string;
  @ApiProperty({ description: 'Last name (default family_name)' }) last_name!: string;
  @ApiProperty({ description: 'Group names, mapped through the group mappings (default groups)' })
  groups!: string;
}

export class OidcProviderSettingsDto {
  @ApiProperty({ type: OidcClaimsDto }) claims!: OidcClaimsDto;
  @ApiProperty({ description: 'Create an account on a first sign-in (in this domain only; default false)' })
  jit_provisioning!: boolean;
}

export class OidcProviderSettingsInputDto {
  @ApiPropertyOptional({ type: OidcClaimsDto, description: 'Any subset of the claim names' })
  claims?: OidcClaimsDto;
  @ApiPropertyOptional() jit_provisioning?: boolean;
}

export class CreateOidcProviderDto {
  @StringField({
    minLength: 1,
    maxLength: 200,
    description: 'Shown on the sign-in pages ("Continue with …")',
  })
  name!: string;
  @StringField({
    minLength: 1,
    maxLength: 500,
    description: 'The issuer; its metadata is read from {issuer}/.well-known/openid-configuration',
  })
  issuer!: string;
  @StringField({ minLength: 1, maxLength: 500 }) client_id!: string;
  @PasswordField({ description: 'Sealed at rest, never shown' }) client_secret!: string;
  @StringArrayField({
    required: false,
    maxItems: 20,
    itemMaxLength: 100,
    description: 'Scopes asked for (openid is always among them; default openid email profile)',
  })
  scopes?: string[];
  @BoolField({ required: false, description: 'Default true' }) enabled?: boolean;
  @AuthenticatorSettingsField(OidcProviderSettingsInputDto, false) settings?: Record<string, unknown>;
}

export class UpdateOidcProviderDto {
  @StringField({ required: false, minLength: 1, maxLength: 200 }) name?: string;
  @StringField({ required: false, minLength: 1, maxLength: 500 }) issuer?: string;
  @StringField({ required: false, minLength: 1, maxLength: 500 }) client_id?: string;
  @PasswordField({ required: false, description: 'A new client secret (sealed, never shown)' })
  client_secret?: string;
  @StringArrayField({ required: false, maxItems: 20, itemMaxLength: 100 }) scopes?: string[];
  @BoolField({ required: false }) enabled?: boolean;
  @AuthenticatorSettingsField(OidcProviderSettingsInputDto, false) settings?: Record<string, unknown>;
}

export class OidcProviderDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'Names the provider in its redirect URI' }) public_id!: string;
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() issuer!: string;
  @ApiProperty() client_id!: string;
  @ApiProperty({ description: 'A client secret is stored (it is never shown)' }) client_secret_set!: boolean;
  @ApiProperty({ type: [String] }) scopes!: string[];
  @ApiProperty({ type: OidcProviderSettingsDto }) settings!: OidcProviderSettingsDto;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({
    description:
      'Register this at the provider: {PUBLIC_BASE_URL}/API/auth/v1/auth/oauth/callback/{public_id}/',
  })
  redirect_uri!: string;
  @ApiProperty({ type: [String], description: 'The email domains bound to this provider (verified or not)' })
  domains!: string[];
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}

export class OidcProviderListDto extends ListEnvelopeDto(OidcProviderDto) {}

/**
 * Body of POST auth/oauth/login/: start a sign-in (`email`, routed by its verified domain, or `provider_id`;
 * optional `return_to`), or finish one (`code`, the single-use code of the callback's return).
 */
export class OidcLoginDto {
  @EmailField({ required: false, description: 'Start: the provider the email’s verified domain routes to' })
  email?: string;
  @UuidField({ required: false, description: 'Start: this provider (its id)' }) provider_id?: string;
  @StringField({
    required: false,
    maxLength: 2000,
    description: 'Start: where the browser returns with the code (the service or the domain’s web app)',
  })
  return_to?: string;
  @StringField({
    required: false,
    maxLength: 200,
    description: 'Finish: the oauth_code the browser came back with',
  })
  code?: string;
}

export class OidcLoginUrlDto {
  @ApiProperty({ description: 'Send the browser here: the provider’s authorization endpoint' }) url!: string;
}
