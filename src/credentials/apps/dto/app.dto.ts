import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { SCOPE_NAMES } from '../../../base/common/auth/scopes.js';
import {
  EnumField,
  StringArrayField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';
import { APP_TYPES, OAUTH_CLIENT_TYPES } from '../../../base/model/app.entity.js';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';

/** Body of POST /v1/apps/. Read-only fields sent back by clients are ignored (stripped), not refused. */
export class CreateAppDto {
  @StringField({ minLength: 1, maxLength: 200, description: 'Shown on the consent screen for OAuth apps' })
  name!: string;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) description?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 2000, description: 'http(s) URL' }) url?:
    string | null;
  @UuidField({
    required: false,
    nullable: true,
    description: 'The user the app acts as: required for a backend service, optional for a service account',
  })
  default_user_id?: string | null;
  @EnumField(APP_TYPES, { required: false, description: 'Set at creation (default PAT); ignored on PATCH' })
  type?: (typeof APP_TYPES)[number];
  @EnumField(OAUTH_CLIENT_TYPES, { required: false, nullable: true, description: 'OAuth apps only' })
  oauth_client_type?: (typeof OAUTH_CLIENT_TYPES)[number] | null;
  @StringArrayField({ required: false, in: SCOPE_NAMES, maxItems: 20, description: 'OAuth apps' })
  allowed_scopes?: string[];
  @StringArrayField({
    required: false,
    maxItems: 50,
    description: 'Full URLs, matched exactly; blank entries dropped; required for authorization-code apps',
  })
  redirect_uris?: string[];
  @StringArrayField({
    required: false,
    maxItems: 50,
    description: 'Origins (scheme://host[:port]); public apps only',
  })
  allowed_origins?: string[];
  @StringArrayField({
    required: false,
    maxItems: 50,
    description:
      'OpenID Connect RP-initiated logout: where the end-session endpoint may send the browser afterwards. ' +
      'Full URLs, matched exactly; blank entries dropped; OAuth apps only',
  })
  post_logout_redirect_uris?: string[];
}

/** PUT/PATCH body: any subset; `type` is ignored. */
// skipNullProperties false: only absent fields are skipped; `"name": null` is validated (and refused)
export class UpdateAppDto extends PartialType(CreateAppDto, { skipNullProperties: false }) {}

export class AppDto {
  @ApiProperty({ format: 'uuid', readOnly: true, description: 'Also the OAuth client_id' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ nullable: true, type: String }) url!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'uuid' }) default_user_id!: string | null;
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({ enum: APP_TYPES }) type!: string;
  @ApiProperty({ enum: OAUTH_CLIENT_TYPES, nullable: true }) oauth_client_type!: string | null;
  @ApiProperty({ type: [String] }) allowed_scopes!: string[];
  @ApiProperty({ type: [String] }) redirect_uris!: string[];
  @ApiProperty({ type: [String] }) allowed_origins!: string[];
  @ApiProperty({ type: [String] }) post_logout_redirect_uris!: string[];
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_modified!: string;
}

export class CreatedAppDto extends AppDto {
  @ApiPropertyOptional({ description: 'Confidential OAuth apps only; shown once, here' })
  client_secret?: string;
}

export class AppListDto extends ListEnvelopeDto(AppDto) {}

export class ScopeDto {
  @ApiProperty({ example: 'assets:read' }) name!: string;
  @ApiProperty() description!: string;
}

export class ScopeListDto extends ListEnvelopeDto(ScopeDto) {}
