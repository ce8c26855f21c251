import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, MaxLength, ValidateIf } from 'class-validator';
import { EnumField, StringField } from '../../../base/common/validation/fields.js';

/** The authorization request (RFC 6749 §4.1.1 + PKCE): what the client sent the user's browser with. */
export class AuthorizationQueryDto {
  @StringField({ description: 'The application id' }) client_id!: string;
  @StringField({ maxLength: 2000 }) redirect_uri!: string;
  @StringField({ description: 'Must be code' }) response_type!: string;
  @StringField({ required: false, description: 'Space separated; default: all of the app’s scopes' })
  scope?: string;
  @StringField({ required: false, maxLength: 1024 }) state?: string;
  @StringField({ maxLength: 128 }) code_challenge!: string;
  @StringField({ description: 'Must be S256' }) code_challenge_method!: string;
  @StringField({
    required: false,
    maxLength: 512,
    description: 'OpenID Connect: echoed in the id_token (scope openid)',
  })
  nonce?: string;
}

/** The request parameters, as names: POST takes each of them in the query string or in the body. */
export const AUTHORIZATION_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
  'nonce',
] as const satisfies readonly (keyof AuthorizationQueryDto)[];

/**
 * The published form of the decision: `confirm` present (any value, even empty) allows, absent denies. A JSON
 * body may send `true`; anything but text or `true` (`false`, `null`, a list) is a 400, never read as a yes.
 */
function ConfirmField(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      maxLength: 1024,
      description:
        'Present (any value, even empty) = Allow; absent = Deny (unless decision is given). A JSON body may send true.',
    }),
    Transform(({ value }: { value: unknown }) => (value === true ? '' : value)),
    ValidateIf((_o, v) => v !== undefined),
    IsString({ message: 'present (any text, even empty) allows; leave it out to deny' }),
    MaxLength(1024),
  );
}

/** The decision, in the published form (`confirm`) or today's (`decision`); both may be given if they agree. */
class DecisionFieldsDto {
  @ConfirmField() confirm?: string;
  @EnumField(['allow', 'deny'], { required: false, description: 'Today’s form; agrees with confirm if both' })
  decision?: 'allow' | 'deny';
}

/**
 * POST's query string and body (JSON or form-encoded) each carry this: every request parameter is optional
 * in either place, the two are merged (a parameter given in both must have the same value) and the merged
 * request must then be complete, as GET's is.
 */
export class AuthorizationDecisionDto extends DecisionFieldsDto {
  @StringField({ required: false, description: 'The application id' }) client_id?: string;
  @StringField({ required: false, maxLength: 2000 }) redirect_uri?: string;
  @StringField({ required: false, description: 'Must be code' }) response_type?: string;
  @StringField({ required: false, description: 'Space separated; default: all of the app’s scopes' })
  scope?: string;
  @StringField({ required: false, maxLength: 1024 }) state?: string;
  @StringField({ required: false, maxLength: 128 }) code_challenge?: string;
  @StringField({ required: false, description: 'Must be S256' }) code_challenge_method?: string;
  @StringField({
    required: false,
    maxLength: 512,
    description: 'OpenID Connect: echoed in the id_token (scope openid)',
  })
  nonce?: string;
}

export class ScopeDescriptionDto {
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
}

export class AuthorizationClientDto {
  @ApiProperty({ description: 'The application’s name, to show on the consent screen' }) name!: string;
}

export class PendingAuthorizationDto {
  @ApiProperty({ format: 'uuid' }) client_id!: string;
  @ApiProperty({ type: AuthorizationClientDto, description: 'The application (published form)' })
  client!: AuthorizationClientDto;
  @ApiProperty() app_name!: string;
  @ApiProperty({ nullable: true, type: String }) app_url!: string | null;
  @ApiProperty() redirect_uri!: string;
  @ApiProperty({ type: [String], description: 'The scope names asked for' }) scopes!: string[];
  @ApiProperty({ type: [ScopeDescriptionDto], description: 'The same scopes, each in plain words' })
  scope_descriptions!: ScopeDescriptionDto[];
  @ApiProperty({ nullable: true, type: String }) state!: string | null;
}

export class AuthorizationRedirectDto {
  @ApiProperty({
    description:
      'Where to send the browser: redirect_uri with code, state and iss, or with error=access_denied',
  })
  redirect_uri!: string;
  @ApiProperty({ description: 'The same URL as redirect_uri (the earlier name)' })
  redirect_to!: string;
}
