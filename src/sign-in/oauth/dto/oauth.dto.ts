import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { TOKEN_KINDS } from '../../../base/model/token.entity.js';

/** Documentation of the token endpoint's form (the endpoint reads the form itself: RFC 6749 rules). */
export class TokenRequestFormDto {
  @ApiProperty({ enum: ['client_credentials', 'authorization_code', 'refresh_token'] }) grant_type!: string;
  @ApiPropertyOptional({ description: 'Or HTTP Basic client_id:client_secret' }) client_id?: string;
  @ApiPropertyOptional({ description: 'Confidential clients; or HTTP Basic (not both)' })
  client_secret?: string;
  @ApiPropertyOptional({
    description: 'Space separated; client_credentials and refresh_token (narrowing only)',
  })
  scope?: string;
  @ApiPropertyOptional({ description: 'authorization_code' }) code?: string;
  @ApiPropertyOptional({ description: 'authorization_code: identical to the one sent to the consent page' })
  redirect_uri?: string;
  @ApiPropertyOptional({ description: 'authorization_code: PKCE verifier, 43 to 128 unreserved characters' })
  code_verifier?: string;
  @ApiPropertyOptional({ description: 'refresh_token grant' }) refresh_token?: string;
}

export class TokenResponseDto {
  @ApiProperty({ description: 'JWT' }) access_token!: string;
  @ApiProperty({ description: 'Same value as access_token' }) token!: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type!: string;
  @ApiProperty({ description: 'Seconds' }) expires_in!: number;
  @ApiPropertyOptional({ description: 'Absent for client_credentials' }) refresh_token?: string;
  @ApiProperty({ description: 'Space separated' }) scope!: string;
  @ApiPropertyOptional({
    description:
      'OpenID Connect: the grant has the openid scope (authorization_code, and refresh_token while openid stays); an ES256 JWT',
  })
  id_token?: string;
}

export class OAuthErrorDto {
  @ApiProperty({
    enum: [
      'invalid_request',
      'invalid_client',
      'invalid_grant',
      'invalid_scope',
      'unauthorized_client',
      'unsupported_grant_type',
      'temporarily_unavailable',
      'server_error',
    ],
  })
  error!: string;
  @ApiProperty() error_description!: string;
}

export class TokenActionFormDto {
  @ApiProperty() token!: string;
  @ApiPropertyOptional({ enum: ['access_token', 'refresh_token'] }) token_type_hint?: string;
  @ApiPropertyOptional() client_id?: string;
  @ApiPropertyOptional() client_secret?: string;
}

export class IntrospectionDto {
  @ApiProperty() active!: boolean;
  @ApiPropertyOptional() scope?: string;
  @ApiPropertyOptional() client_id?: string;
  @ApiPropertyOptional() sub?: string;
  @ApiPropertyOptional() username?: string;
  @ApiPropertyOptional() token_type?: string;
  @ApiPropertyOptional() exp?: number;
  @ApiPropertyOptional() iat?: number;
  @ApiPropertyOptional() iss?: string;
  @ApiPropertyOptional() jti?: string;
  @ApiPropertyOptional({ format: 'uuid', description: 'Active access tokens: the system domain they act in' })
  sys?: string;
  @ApiPropertyOptional({ enum: TOKEN_KINDS, description: 'Active access tokens: what issued the token' })
  token_kind?: string;
}

export class RevokeRefreshTokenDto {
  @ApiProperty()
  @IsString()
  @MaxLength(512)
  refresh_token!: string;
}

export class AuthorizationServerMetadataDto {
  @ApiProperty() issuer!: string;
  @ApiProperty() authorization_endpoint!: string;
  @ApiProperty() token_endpoint!: string;
  @ApiProperty() jwks_uri!: string;
  @ApiProperty() revocation_endpoint!: string;
  @ApiProperty() introspection_endpoint!: string;
  @ApiProperty({ type: [String] }) scopes_supported!: string[];
  @ApiProperty({ type: [String] }) response_types_supported!: string[];
  @ApiProperty({ type: [String] }) response_modes_supported!: string[];
  @ApiProperty({ type: [String] }) grant_types_supported!: string[];
  @ApiProperty({ type: [String] }) code_challenge_methods_supported!: string[];
  @ApiProperty({ type: [String] }) token_endpoint_auth_methods_supported!: string[];
  @ApiProperty({ type: [String] }) revocation_endpoint_auth_methods_supported!: string[];
  @ApiProperty({ type: [String] }) introspection_endpoint_auth_methods_supported!: string[];
  @ApiProperty() authorization_response_iss_parameter_supported!: boolean;
  @ApiProperty() service_documentation!: string;
}

/** OpenID Connect Discovery 1.0 §3: the RFC 8414 document's fields, and the OpenID Provider's. */
export class OpenIdConfigurationDto extends AuthorizationServerMetadataDto {
  @ApiProperty() userinfo_endpoint!: string;
  @ApiProperty() end_session_endpoint!: string;
  @ApiProperty({ type: [String] }) subject_types_supported!: string[];
  @ApiProperty({ type: [String] }) id_token_signing_alg_values_supported!: string[];
  @ApiProperty({ type: [String] }) claims_supported!: string[];
  @ApiProperty({ type: [String] }) acr_values_supported!: string[];
  @ApiProperty({ type: [String] }) prompt_values_supported!: string[];
  @ApiProperty() claims_parameter_supported!: boolean;
  @ApiProperty() request_parameter_supported!: boolean;
  @ApiProperty() request_uri_parameter_supported!: boolean;
  @ApiProperty() frontchannel_logout_supported!: boolean;
  @ApiProperty() backchannel_logout_supported!: boolean;
}
