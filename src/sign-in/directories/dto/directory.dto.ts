import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { AuthenticatorSettingsField } from '../../federation/settings-field.js';
import {
  BoolField,
  EmailField,
  EnumField,
  PasswordField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';
import { DIRECTORY_TYPES, type DirectoryType } from '../../../base/model/federation.entity.js';

/** The attributes a directory names a person's parts in (defaults per type). */
export class DirectoryAttributesDto {
  @ApiPropertyOptional({
    description: 'The email address (default mail; AD falls back to userPrincipalName)',
  })
  email?: string;
  @ApiPropertyOptional({ description: 'First name (default givenName)' }) first_name?: string;
  @ApiPropertyOptional({ description: 'Last name (default sn)' }) last_name?: string;
  @ApiPropertyOptional({ description: 'Group DNs, mapped through the group mappings (default memberOf)' })
  groups?: string;
}

/** A directory's settings as stored and shown (the service account's password is never shown). */
export class DirectorySettingsDto {
  @ApiProperty({
    description: 'ldap://host[:port] or ldaps://host[:port]',
    example: 'ldaps://dc1.corp.example',
  })
  url!: string;
  @ApiProperty({
    description: 'Upgrade an ldap:// connection with StartTLS (RFC 4513) before anything is sent',
  })
  start_tls!: boolean;
  @ApiProperty({ nullable: true, type: String, description: 'The service account that searches for people' })
  bind_dn!: string | null;
  @ApiProperty({
    description: 'Where people are searched (the subtree)',
    example: 'ou=people,dc=corp,dc=example',
  })
  base_dn!: string;
  @ApiProperty({
    description:
      'An LDAP filter with {email} (the address typed) and/or {username} (its part before the @); each value ' +
      'is escaped (RFC 4515). Defaults: LDAP (&(objectClass=inetOrgPerson)(mail={email})), ACTIVE_DIRECTORY ' +
      '(&(objectClass=user)(userPrincipalName={email}))',
  })
  user_filter!: string;
  @ApiProperty({ type: DirectoryAttributesDto }) attributes!: DirectoryAttributesDto;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'A PEM CA certificate the server’s certificate must chain to (else the system’s CAs)',
  })
  ca_certificate!: string | null;
  @ApiProperty({ minimum: 100, maximum: 30000, description: 'Connection timeout (default 5000)' })
  connect_timeout_ms!: number;
  @ApiProperty({ minimum: 100, maximum: 60000, description: 'Timeout of each operation (default 10000)' })
  timeout_ms!: number;
  @ApiProperty({ description: 'Create an account on a first sign-in (in this domain only; default false)' })
  jit_provisioning!: boolean;
  @ApiProperty({ description: 'Whether a service account password is stored (it is never shown)' })
  bind_password_set!: boolean;
}

/** The settings an administrator sends (any subset on PATCH: merged over the stored ones, judged again). */
export class DirectorySettingsInputDto {
  @ApiPropertyOptional() url?: string;
  @ApiPropertyOptional() start_tls?: boolean;
  @ApiPropertyOptional({ nullable: true, type: String }) bind_dn?: string | null;
  @ApiPropertyOptional({
    nullable: true,
    type: String,
    format: 'password',
    writeOnly: true,
    description: 'The service account’s password: sealed at rest, never shown; null removes it',
  })
  bind_password?: string | null;
  @ApiPropertyOptional() base_dn?: string;
  @ApiPropertyOptional() user_filter?: string;
  @ApiPropertyOptional({ type: DirectoryAttributesDto }) attributes?: DirectoryAttributesDto;
  @ApiPropertyOptional({ nullable: true, type: String }) ca_certificate?: string | null;
  @ApiPropertyOptional({ minimum: 100, maximum: 30000 }) connect_timeout_ms?: number;
  @ApiPropertyOptional({ minimum: 100, maximum: 60000 }) timeout_ms?: number;
  @ApiPropertyOptional() jit_provisioning?: boolean;
}

export class CreateDirectoryDto {
  @StringField({ minLength: 1, maxLength: 200, description: 'Shown on the sign-in pages' }) name!: string;
  @EnumField(DIRECTORY_TYPES, { enumName: 'DirectoryType' }) type!: DirectoryType;
  @BoolField({ required: false, description: 'Default true' }) enabled?: boolean;
  @AuthenticatorSettingsField(DirectorySettingsInputDto, true) settings!: Record<string, unknown>;
}

export class UpdateDirectoryDto {
  @StringField({ required: false, minLength: 1, maxLength: 200 }) name?: string;
  @EnumField(DIRECTORY_TYPES, { required: false, enumName: 'DirectoryType' }) type?: DirectoryType;
  @BoolField({ required: false }) enabled?: boolean;
  @AuthenticatorSettingsField(DirectorySettingsInputDto, false) settings?: Record<string, unknown>;
}

export class DirectoryDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: DIRECTORY_TYPES, enumName: 'DirectoryType' }) type!: DirectoryType;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: DirectorySettingsDto }) settings!: DirectorySettingsDto;
  @ApiProperty({ type: [String], description: 'The email domains bound to this directory (verified or not)' })
  domains!: string[];
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}

export class DirectoryListDto extends ListEnvelopeDto(DirectoryDto) {}

/** Body of POST directories/{id}/test/: whom to look for (else only the service account's bind is tried). */
export class DirectoryTestDto {
  @EmailField({ required: false, description: 'An address to search with the user filter' }) email?: string;
}

export class DirectoryTestEntryDto {
  @ApiProperty() dn!: string;
  @ApiProperty({ nullable: true, type: String }) email!: string | null;
  @ApiProperty({ nullable: true, type: String }) first_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) last_name!: string | null;
  @ApiProperty({ type: [String] }) groups!: string[];
  @ApiProperty({ description: 'Active Directory: the account is disabled (userAccountControl)' })
  disabled!: boolean;
}

/** What one bind and search found: where it stopped, and the entry. */
export class DirectoryTestResultDto {
  @ApiProperty({ description: 'Every step succeeded (and, with an email, exactly one entry was found)' })
  ok!: boolean;
  @ApiProperty({
    enum: ['connect', 'bind', 'search', 'done'],
    description: 'The step reached: connect (and StartTLS), bind (the service account), search, done',
  })
  stage!: 'connect' | 'bind' | 'search' | 'done';
  @ApiProperty({ nullable: true, type: String, description: 'What went wrong, as the directory said it' })
  message!: string | null;
  @ApiProperty({ description: 'Entries the filter found (0 without an email)' }) entries!: number;
  @ApiProperty({ type: DirectoryTestEntryDto, nullable: true }) entry!: DirectoryTestEntryDto | null;
  @ApiProperty({ description: 'How long it took, in milliseconds' }) elapsed_ms!: number;
}

/** Body of POST auth/ad/login/. */
export class DirectoryLoginDto {
  @EmailField() email!: string;
  @PasswordField() password!: string;
  @UuidField({
    required: false,
    description: 'The domain whose directory checks the password (else the one the email’s domain routes to)',
  })
  system_domain_id?: string;
}
