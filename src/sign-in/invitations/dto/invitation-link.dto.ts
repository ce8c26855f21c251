import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsUUID, ValidateIf } from 'class-validator';
import {
  BoolField,
  EmailField,
  EnumField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';
import { USER_TYPES, type UserType } from '../../../base/model/user.entity.js';

/** Body of POST /v1/users/invite/token/request/. */
export class InvitationLinkRequestDto {
  @UuidField({ description: 'A group of the caller’s domain; the invited person joins it' })
  primary_group!: string;
  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    maxItems: 50,
    description: 'Further groups to join',
  })
  @ValidateIf((_o, v) => v !== undefined)
  @IsArray()
  @ArrayMaxSize(50)
  @IsUUID('all', { each: true, message: 'each value must be a UUID' })
  groups?: string[];
  @BoolField({
    required: false,
    description: 'Default false. The invited person becomes an administrator: only an administrator may ask',
  })
  is_admin?: boolean;
  @EnumField(USER_TYPES, { required: false, description: 'Default STANDARD; each registration holds a seat' })
  type?: UserType;
}

/** The link: its secret is shown here once, only its SHA-256 is kept. */
export class InvitationLinkDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ description: 'The link’s secret (256 bits): the `token` of users/invite/register/' })
  token!: string;
  @ApiProperty({
    format: 'uri',
    description:
      'The link the invitee follows (shown once, like token): the web app’s registration page at PUBLIC_BASE_URL, `/invitation/register?hash=<token>`, built like the mailed invitation links; the page checks it with users/invite/validate/?hash= and registers with users/invite/register/',
  })
  invite_link!: string;
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
  @ApiProperty({ format: 'uuid' }) primary_group!: string;
  @ApiProperty({ type: [String], format: 'uuid' }) groups!: string[];
  @ApiProperty() is_admin!: boolean;
  @ApiProperty({ enum: USER_TYPES }) type!: UserType;
  @ApiProperty({ format: 'date-time' }) expires!: string;
}

/** Body of POST /v1/users/invite/validate/: the token here, or as the query's `hash` (one of them). */
export class InvitationTokenDto {
  @StringField({
    required: false,
    maxLength: 200,
    description:
      'An invitation link’s token or a mailed invitation’s secret; or send it as the query parameter `hash`',
  })
  token?: string;
}

/** Query of POST /v1/users/invite/validate/: the published clients send the link's token as `hash`. */
export class InvitationTokenQueryDto {
  @StringField({
    required: false,
    maxLength: 200,
    description: 'The token, as the published clients send it; given with a different body `token`, a 400',
  })
  hash?: string;
}

export class InvitationTokenStateDto {
  @ApiProperty({ description: 'Always true: an unknown token is a 404, a spent or expired one a 419' })
  valid!: boolean;
  @ApiProperty({ enum: ['link', 'invitation'], description: 'A reusable link, or a single-use invitation' })
  kind!: 'link' | 'invitation';
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
  @ApiProperty() system_domain_name!: string;
  @ApiProperty({ enum: USER_TYPES }) type!: UserType;
  @ApiProperty({ format: 'date-time' }) expires!: string;
}

/** Body of POST /v1/users/invite/register/. */
export class InvitationRegisterDto {
  @EmailField({ description: 'The single-use invitation is mailed here' }) email!: string;
  @StringField({ minLength: 1, maxLength: 200 }) first_name!: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) last_name?: string | null;
  @StringField({ maxLength: 200, description: 'The invitation link’s token' }) token!: string;
}

export class InvitationRegisteredDto {
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
  @ApiProperty({
    description:
      'The same whatever the address: an invitation was mailed to it unless it is a member already or has a pending invitation',
  })
  detail!: string;
}
