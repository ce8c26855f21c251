import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MinLength } from 'class-validator';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import {
  BoolField,
  EmailField,
  EnumField,
  PasswordField,
  StringField,
} from '../../../base/common/validation/fields.js';
import { USER_STATUSES, USER_TYPES } from '../../../base/model/user.entity.js';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { ALL_ROLES, type Role } from '../../../base/common/auth/roles.js';

export const MIN_PASSWORD_LENGTH = 8;

/** PasswordField has no length floor; the spec's password checks start at 8 characters. */
function NewPasswordField(): PropertyDecorator {
  return (target, key) => {
    PasswordField({ required: false, description: `At least ${MIN_PASSWORD_LENGTH} characters` })(
      target,
      key,
    );
    ApiPropertyOptional({ minLength: MIN_PASSWORD_LENGTH })(target, key);
    MinLength(MIN_PASSWORD_LENGTH, { message: `must be at least ${MIN_PASSWORD_LENGTH} characters` })(
      target,
      key,
    );
  };
}

/** Body of POST /v1/users/. Read-only fields sent back by clients are stripped, not refused. */
export class CreateUserDto {
  @EmailField({ description: 'Unique across every domain; stored lower-cased' }) email!: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) first_name?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) last_name?: string | null;
  @NewPasswordField() password?: string;
  @BoolField({ required: false, description: 'Administrator of the domains the user belongs to' })
  is_admin?: boolean;
  @BoolField({ required: false, description: 'Super administrators only; ignored for anyone else' })
  is_super_admin?: boolean;
  @EnumField(USER_STATUSES, { required: false, description: 'Default ACTIVE' })
  status?: (typeof USER_STATUSES)[number];
  @EnumField(USER_TYPES, { required: false, description: 'Default STANDARD' })
  type?: (typeof USER_TYPES)[number];
}

/**
 * Body of PATCH and PUT /v1/users/{user_id}/ and /v1/users/current/ (PUT is PATCH: any subset, so a client may
 * send back the whole object it read). Users may change their own first_name and last_name; everything else
 * needs can_write_users. A field equal to its stored value is no change and needs no right; read-only fields
 * (id, dates, system_domain_id, last_login) are stripped.
 */
export class UpdateUserDto {
  @EmailField({ required: false }) email?: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) first_name?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) last_name?: string | null;
  @NewPasswordField() password?: string;
  @BoolField({ required: false, description: 'Administrators only' }) is_admin?: boolean;
  @BoolField({ required: false, description: 'Super administrators only; ignored for anyone else' })
  is_super_admin?: boolean;
  @EnumField(USER_STATUSES, { required: false, description: 'INACTIVE stops every token of the user' })
  status?: (typeof USER_STATUSES)[number];
  @EnumField(USER_TYPES, { required: false, description: 'Administrators only' })
  type?: (typeof USER_TYPES)[number];
}

export class UserListQueryDto extends PageQueryDto {
  @StringField({
    required: false,
    maxLength: 200,
    description: 'Case-insensitive substring of email, first_name or last_name',
  })
  query?: string;
}

export class UserDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty({ nullable: true, type: String }) first_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) last_name!: string | null;
  @ApiProperty({ enum: USER_STATUSES }) status!: string;
  @ApiProperty({ enum: USER_TYPES, default: 'STANDARD' }) type!: string;
  @ApiProperty() is_admin!: boolean;
  @ApiProperty() is_super_admin!: boolean;
  @ApiProperty({
    format: 'uuid',
    readOnly: true,
    description: 'The domain this record is seen from: the caller’s domain',
  })
  system_domain_id!: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String, readOnly: true })
  last_login!: string | null;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_modified!: string;
  @ApiProperty({
    type: [String],
    format: 'uuid',
    readOnly: true,
    description: 'Groups in the caller’s domain',
  })
  groups!: string[];
  @ApiProperty({
    type: [String],
    format: 'uuid',
    readOnly: true,
    description: 'Teams in the caller’s domain',
  })
  teams!: string[];
  @ApiProperty({
    type: [String],
    format: 'uuid',
    readOnly: true,
    description: 'Role groups in the caller’s domain',
  })
  role_groups!: string[];
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    readOnly: true,
    description: 'The member’s primary group in the caller’s domain (set by an invitation link), or null',
  })
  primary_group!: string | null;
}

export class UserListDto extends ListEnvelopeDto(UserDto) {}

/** A user as pickers need them: any member of the domain may list these (GET /v1/users/basic/). */
export class UserBasicDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty({ nullable: true, type: String }) first_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) last_name!: string | null;
  @ApiProperty({ enum: USER_TYPES, default: 'STANDARD' }) type!: string;
  @ApiProperty({ enum: USER_STATUSES }) status!: string;
}

export class UserBasicListDto extends ListEnvelopeDto(UserBasicDto) {}

/** A user's effective roles in the caller's domain. */
export class UserRolesDto {
  @ApiProperty({
    type: [String],
    enum: ALL_ROLES,
    description:
      'In the order of the role catalogue. Super administrators hold every role, domain administrators every domain role, anyone else the union of their groups’ and role groups’ roles in this domain',
  })
  roles!: Role[];
  @ApiProperty({
    type: [String],
    enum: ALL_ROLES,
    description: 'The same list, under the published model’s key',
  })
  objects!: Role[];
}
