import { ApiProperty } from '@nestjs/swagger';
import { EnumField, StringField } from '../../common/validation/fields.js';

export class AuthorizationQueryDto {
  @StringField({ description: 'The application id' }) client_id!: string;
  @StringField({ maxLength: 2000 }) redirect_uri!: string;
  @StringField({ description: 'Must be code' }) response_type!: string;
  @StringField({ required: false, description: 'Space separated; default: all of the app’s scopes' })
  scope?: string;
  @StringField({ required: false, maxLength: 1024 }) state?: string;
  @StringField({ maxLength: 128 }) code_challenge!: string;
  @StringField({ description: 'Must be S256' }) code_challenge_method!: string;
}

export class AuthorizationDecisionDto extends AuthorizationQueryDto {
  @EnumField(['allow', 'deny']) decision!: 'allow' | 'deny';
}

export class ScopeDescriptionDto {
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
}

export class PendingAuthorizationDto {
  @ApiProperty({ format: 'uuid' }) client_id!: string;
  @ApiProperty() app_name!: string;
  @ApiProperty({ nullable: true, type: String }) app_url!: string | null;
  @ApiProperty() redirect_uri!: string;
  @ApiProperty({ type: [ScopeDescriptionDto] }) scopes!: ScopeDescriptionDto[];
  @ApiProperty({ nullable: true, type: String }) state!: string | null;
}

export class AuthorizationRedirectDto {
  @ApiProperty({
    description: 'Where to send the browser: redirect_uri with code and state, or error=access_denied',
  })
  redirect_to!: string;
}
