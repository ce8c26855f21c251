import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DOMAIN_STATUSES } from '../../../base/model/system-domain.entity.js';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';

/** The second factors (sign-in/login/mfa-policy.ts, MFA_METHODS: the credentials layer sits below it). */
const MFA_METHODS = ['TOTP', 'MAIL_2SV', 'WEBAUTHN'];

// `string | null` reflects as Object: nullable fields name their type, or the document says `object`
export class MultiDomainUserSystemDto {
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
  @ApiPropertyOptional({ readOnly: true }) system_domain_name?: string;
  @ApiPropertyOptional({ type: String, format: 'uri', readOnly: true, nullable: true })
  logo_url?: string | null;
  @ApiPropertyOptional({ type: String, format: 'uri', readOnly: true, nullable: true })
  platform_url?: string | null;
  @ApiPropertyOptional({ type: String, format: 'uri', readOnly: true, nullable: true })
  url?: string | null;
  @ApiPropertyOptional({ readOnly: true }) mfa_required?: boolean;
  @ApiPropertyOptional({ readOnly: true }) mfa_required_configured?: boolean;
  @ApiPropertyOptional({ readOnly: true, type: [String], enum: MFA_METHODS }) mfa_methods?: string[];
  @ApiPropertyOptional({ readOnly: true, type: [String], enum: MFA_METHODS })
  mfa_methods_configured?: string[];
}

/** TokenOutput: the list/detail form, without the JWT. */
export class TokenOutputDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true }) app_id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true }) user_id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({ type: [String], format: 'uuid', readOnly: true }) system_domains!: string[];
  @ApiProperty({ enum: DOMAIN_STATUSES, readOnly: true }) system_domain_status!: string;
  @ApiProperty({ readOnly: true }) system_domain_type!: string;
  @ApiProperty({ readOnly: true }) system_domain_is_plg!: boolean;
  @ApiProperty({ type: String, readOnly: true, nullable: true })
  system_domain_warning_message!: string | null;
  @ApiProperty({ readOnly: true }) is_admin!: boolean;
  @ApiProperty({ readOnly: true }) is_mfa_authenticated!: boolean;
  @ApiProperty({ readOnly: true }) is_super_admin!: boolean;
  @ApiProperty({ readOnly: true }) is_super_admin_light!: boolean;
  @ApiProperty({
    enum: ['PAT', 'LOGIN', 'OAUTH', 'TEMP', 'SCIM'],
    readOnly: true,
    description: 'What issued the token (TEMP: the temporary sign-in token of a sign-in that owes a factor)',
  })
  kind!: string;
  @ApiProperty({
    type: [String],
    readOnly: true,
    nullable: true,
    description: 'OAuth tokens: granted scopes',
  })
  scopes!: string[] | null;
  @ApiProperty({ format: 'date-time', readOnly: true }) expires!: string;
  @ApiProperty({ type: String, format: 'date-time', readOnly: true, nullable: true })
  revoked_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', readOnly: true, nullable: true })
  last_used_at!: string | null;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_modified!: string;
}

/** Token: TokenOutput plus the JWT, shown once where a token is issued. */
export class TokenDto extends TokenOutputDto {
  @ApiProperty({ description: 'The JWT; send as Authorization: Bearer' }) token!: string;
}

/** The multi-platform login form: a deprecated top-level token plus one token per domain. */
export class MultiDomainTokenItemDto extends MultiDomainUserSystemDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The login token of this domain; null while a second factor is owed (see temp_token)',
  })
  token!: string | null;
}

export class LoginTokenDto extends TokenOutputDto {
  @ApiProperty({
    type: String,
    nullable: true,
    deprecated: true,
    description: 'Use auth_system_domains[].token',
  })
  token!: string | null;
  @ApiProperty({ type: [MultiDomainTokenItemDto], readOnly: true })
  auth_system_domains!: MultiDomainTokenItemDto[];
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    readOnly: true,
    description:
      'Present when a domain still owes a second factor: the short-lived temporary sign-in token, sent as ' +
      'Temp-Auth-Token to POST /v1/auth/multidomain/login/ and /v1/auth/otp/generate/ only',
  })
  temp_token?: string | null;
}

export class TokenListDto extends ListEnvelopeDto(TokenOutputDto) {}
