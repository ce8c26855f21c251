import { ApiProperty } from '@nestjs/swagger';
import { EmailField, StringField } from '../../common/validation/fields.js';

/** Body of POST /v1/users/invite/. */
export class InviteUserDto {
  @EmailField() email!: string;
  @StringField({ required: false, nullable: true, maxLength: 200, description: 'Used for a new user only' })
  first_name?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200, description: 'Used for a new user only' })
  last_name?: string | null;
}

/** The spec's UserSystemDomainInvite, plus the invited user's id. */
export class UserSystemDomainInviteDto {
  @ApiProperty({ format: 'uuid', readOnly: true, description: 'The invitation' }) id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true }) user_id!: string;
  @ApiProperty({ default: false, description: 'The email already belonged to a user (of another domain)' })
  is_existing_user_invitation!: boolean;
  @ApiProperty({ default: false, description: 'The invitation of a new domain’s first user' })
  is_initial_user_invitation!: boolean;
}
