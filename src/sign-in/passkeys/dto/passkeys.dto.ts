import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import {
  EmailField,
  EnumField,
  ObjectField,
  StringArrayField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';

/** base64url text (RFC 4648 §5, no padding) of at most `max` characters. */
const b64 = (max: number, required = true, description?: string) =>
  StringField({ required, maxLength: max, description });

/** A required object of class `type` (a browser's JSON answer), validated field by field. */
function NestedField(type: new () => object): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type }),
    IsObject(),
    ValidateNested(),
    Type(() => type),
  );
}

/** AuthenticatorAttestationResponseJSON: what navigator.credentials.create() answered (base64url fields). */
export class AttestationResponseDto {
  @b64(4096, true, 'The client data (JSON: type, challenge, origin), base64url') clientDataJSON!: string;
  @b64(65536, true, 'The attestation object (CBOR), base64url') attestationObject!: string;
  @b64(65536, false) authenticatorData?: string;
  @StringArrayField({ required: false, maxItems: 10, itemMaxLength: 32 }) transports?: string[];
  @ApiPropertyOptional() publicKeyAlgorithm?: number;
  @b64(4096, false) publicKey?: string;
}

/** AuthenticatorAssertionResponseJSON: what navigator.credentials.get() answered (base64url fields). */
export class AssertionResponseDto {
  @b64(4096, true, 'The client data (JSON: type, challenge, origin), base64url') clientDataJSON!: string;
  @b64(4096, true, 'The authenticator data, base64url') authenticatorData!: string;
  @b64(2048, true, 'The signature over the authenticator data and the client data’s hash') signature!: string;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 128,
    description:
      'The user handle a discoverable credential holds (names the account in a usernameless sign-in)',
  })
  userHandle?: string | null;
}

/** The fields a PublicKeyCredential's JSON form shares. */
class CredentialJsonDto {
  @b64(1366, true, 'The credential id, base64url') id!: string;
  @b64(1366, true, 'The same id (rawId), base64url') rawId!: string;
  @EnumField(['public-key']) type!: 'public-key';
  @EnumField(['platform', 'cross-platform'], { required: false }) authenticatorAttachment?:
    'platform' | 'cross-platform';
  @ObjectField({ required: false }) clientExtensionResults?: Record<string, unknown>;
}

/** RegistrationResponseJSON (as @simplewebauthn/browser's startRegistration() and browsers' toJSON() give it). */
export class RegistrationResponseDto extends CredentialJsonDto {
  @NestedField(AttestationResponseDto) response!: AttestationResponseDto;
}

/** AuthenticationResponseJSON (as @simplewebauthn/browser's startAuthentication() and browsers' toJSON() give it). */
export class AuthenticationResponseDto extends CredentialJsonDto {
  @NestedField(AssertionResponseDto) response!: AssertionResponseDto;
}

export class PasskeyRegistrationDto {
  @StringField({
    required: false,
    maxLength: 100,
    description: 'A name to tell it apart; default: “Passkey”',
  })
  name?: string;
  @NestedField(RegistrationResponseDto) response!: RegistrationResponseDto;
}

export class PasskeyRenameDto {
  @StringField({ minLength: 1, maxLength: 100 }) name!: string;
}

export class PasskeyOptionsRequestDto {
  @EmailField({
    required: false,
    description:
      'The account to sign in (its passkeys are offered); absent: a usernameless sign-in (any discoverable passkey)',
  })
  email?: string;
}

export class PasskeyLoginDto {
  @NestedField(AuthenticationResponseDto) response!: AuthenticationResponseDto;
  @UuidField({
    required: false,
    description:
      'Sign in to this domain only (else every live domain of the account); with Temp-Auth-Token, the domain whose second factor this passes (default: the temporary token’s)',
  })
  system_domain_id?: string;
}

/** A registered passkey (never its key). */
export class PasskeyDto {
  @ApiProperty({ readOnly: true, format: 'uuid' }) id!: string;
  @ApiProperty({ readOnly: true }) name!: string;
  @ApiProperty({ readOnly: true, format: 'date-time' }) date_created!: string;
  @ApiProperty({ readOnly: true, type: String, format: 'date-time', nullable: true }) last_used!:
    string | null;
  @ApiProperty({
    readOnly: true,
    type: [String],
    description: 'How the browser may reach it (usb, nfc, ble, internal, hybrid)',
  })
  transports!: string[];
  @ApiProperty({
    readOnly: true,
    type: String,
    nullable: true,
    description: 'The authenticator model’s AAGUID (all zeros when it does not say)',
  })
  aaguid!: string | null;
  @ApiProperty({
    readOnly: true,
    description: 'Synced between devices (multiDevice) or bound to one (singleDevice)',
  })
  device_type!: string;
  @ApiProperty({ readOnly: true }) backed_up!: boolean;
  @ApiProperty({
    readOnly: true,
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      'When a valid use came with a signature counter lower than the last one (a cloned authenticator): the passkey is refused from then on',
  })
  flagged_at!: string | null;
}

/** The list envelope of passkeys (the signed-in user's own, and an administrator's view). */
export class PasskeyListDto extends ListEnvelopeDto(PasskeyDto) {}

/** A credential named in options (excludeCredentials, allowCredentials). */
export class CredentialDescriptorDto {
  @ApiProperty({ readOnly: true, description: 'The credential id, base64url' }) id!: string;
  @ApiProperty({ readOnly: true, enum: ['public-key'] }) type!: string;
  @ApiPropertyOptional({ readOnly: true, type: [String] }) transports?: string[];
}

export class CredentialParameterDto {
  @ApiProperty({ readOnly: true, description: 'A COSE algorithm: -7 ES256, -257 RS256' }) alg!: number;
  @ApiProperty({ readOnly: true, enum: ['public-key'] }) type!: string;
}

export class RelyingPartyDto {
  @ApiProperty({ readOnly: true, description: 'The RP ID (WEBAUTHN_RP_ID)' }) id!: string;
  @ApiProperty({ readOnly: true }) name!: string;
}

export class WebauthnUserDto {
  @ApiProperty({ readOnly: true, description: 'A random per-account handle (base64url), never the email' })
  id!: string;
  @ApiProperty({ readOnly: true }) name!: string;
  @ApiProperty({ readOnly: true }) displayName!: string;
}

/** PublicKeyCredentialCreationOptionsJSON: hand it to navigator.credentials.create() (or startRegistration()). */
export class CreationOptionsDto {
  @ApiProperty({ readOnly: true, description: 'base64url; single use, for 5 minutes' }) challenge!: string;
  @ApiProperty({ readOnly: true, type: RelyingPartyDto }) rp!: { id?: string; name: string };
  @ApiProperty({ readOnly: true, type: WebauthnUserDto })
  user!: { id: string; name: string; displayName: string };
  @ApiProperty({ readOnly: true, type: [CredentialParameterDto], description: 'ES256 (-7) and RS256 (-257)' })
  pubKeyCredParams!: { alg: number; type: string }[];
  @ApiProperty({ readOnly: true }) timeout?: number;
  @ApiProperty({
    readOnly: true,
    type: [CredentialDescriptorDto],
    description: 'The account’s passkeys (not to be registered twice)',
  })
  excludeCredentials?: { id: string; type: string; transports?: string[] }[];
  @ApiProperty({
    readOnly: true,
    type: 'object',
    additionalProperties: true,
    description: 'residentKey preferred, userVerification preferred',
  })
  authenticatorSelection?: Record<string, unknown>;
  @ApiProperty({ readOnly: true, enum: ['none'] }) attestation?: string;
  @ApiPropertyOptional({ readOnly: true, type: 'object', additionalProperties: true })
  extensions?: Record<string, unknown>;
  @ApiPropertyOptional({ readOnly: true, type: [String] }) hints?: string[];
}

/** PublicKeyCredentialRequestOptionsJSON: hand it to navigator.credentials.get() (or startAuthentication()). */
export class RequestOptionsDto {
  @ApiProperty({ readOnly: true, description: 'base64url; single use, for 5 minutes' }) challenge!: string;
  @ApiProperty({ readOnly: true }) rpId?: string;
  @ApiProperty({ readOnly: true }) timeout?: number;
  @ApiProperty({
    readOnly: true,
    type: [CredentialDescriptorDto],
    description:
      'The account’s passkeys; empty for a usernameless sign-in (the authenticator offers its own)',
  })
  allowCredentials?: { id: string; type: string; transports?: string[] }[];
  @ApiProperty({
    readOnly: true,
    enum: ['required', 'preferred', 'discouraged'],
    description: 'required for a sign-in with the passkey alone; preferred for a second factor',
  })
  userVerification?: string;
  @ApiPropertyOptional({ readOnly: true, type: 'object', additionalProperties: true })
  extensions?: Record<string, unknown>;
  @ApiPropertyOptional({ readOnly: true, type: [String] }) hints?: string[];
}
