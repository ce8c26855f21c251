import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DOMAIN_STATUSES } from '../../../base/model/system-domain.entity.js';
import {
  BoolField,
  EmailField,
  EnumField,
  PasswordField,
  StringField,
} from '../../../base/common/validation/fields.js';
import { USER_TYPES, type UserType } from '../../../base/model/user.entity.js';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';

/** Body of POST /API/users/v1/users/invite/. */
export class InviteUserDto {
  @EmailField() email!: string;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 200,
    description: 'Used for a new account only',
  })
  first_name?: string | null;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 200,
    description: 'Used for a new account only',
  })
  last_name?: string | null;
  @EnumField(USER_TYPES, {
    required: false,
    description:
      'Default STANDARD. The new account’s type (an existing account keeps its own); a pending invitation holds a seat of the domain’s BillingLimits for it',
  })
  type?: UserType;
}

/** The spec's UserSystemDomainInvite: a pending invitation. */
export class UserSystemDomainInviteDto {
  @ApiProperty({ format: 'uuid', readOnly: true, description: 'The invitation' }) id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({ format: 'email', readOnly: true }) email!: string;
  @ApiProperty({
    default: false,
    description:
      'Always false: whether the email already has an account is told only to the invited person (when they open the link), never to the inviting domain',
  })
  is_existing_user_invitation!: boolean;
  @ApiProperty({ default: false, description: 'The invitation of a new domain’s first user' })
  is_initial_user_invitation!: boolean;
  @ApiProperty({ enum: USER_TYPES, readOnly: true }) type!: UserType;
  @ApiProperty({ format: 'date-time', readOnly: true }) expires!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
}

export class InvitationListDto extends ListEnvelopeDto(UserSystemDomainInviteDto) {}

/** The spec's VerifyInviteByLink: what the link's holder (the invited person) may know before accepting. */
export class VerifyInviteByLinkDto {
  @ApiProperty({ format: 'email', nullable: true, type: String }) inviter_email!: string | null;
  @ApiProperty({ description: 'The email already has an account: accepting asks for its password' })
  local_user_exists!: boolean;
  @ApiProperty({ format: 'email' }) new_user_email!: string;
  @ApiProperty({ nullable: true, type: String }) new_user_first_name!: string | null;
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
}

/**
 * The spec's CompleteInvitation. For a new account `password` becomes its password; for an existing account
 * it must be that account's password (the account joins the domain, its password stays).
 */
export class CompleteInvitationDto {
  @PasswordField() password!: string;
  @PasswordField() repeat_password!: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) first_name?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) last_name?: string | null;
  @BoolField({ required: false, nullable: true }) email_marketing_consent?: boolean | null;
}

export class AutoLoginDto {
  @ApiProperty({ format: 'uuid' }) app_id!: string;
  @ApiProperty({ description: 'A sign-in token for the domain just joined' }) token!: string;
}

/** The spec's InvitationResponse. */
export class InvitationResponseDto {
  @ApiProperty() auto_login!: boolean;
  @ApiProperty({ enum: DOMAIN_STATUSES }) domain_status!: string;
  @ApiPropertyOptional({ type: AutoLoginDto, nullable: true }) login_data!: AutoLoginDto | null;
  @ApiProperty({ format: 'uuid', readOnly: true }) user_id!: string;
}
