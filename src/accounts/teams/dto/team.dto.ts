import { ApiProperty } from '@nestjs/swagger';
import { ALL_ROLES } from '../../../base/common/auth/roles.js';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { RolesField } from '../../groups/dto/group.dto.js';
import { EnumField, StringArrayField, StringField } from '../../../base/common/validation/fields.js';
import { USER_TYPES } from '../../../base/model/user.entity.js';

const ROLES_DESCRIPTION =
  'Role names its members hold; a caller may only grant roles they hold (so only super administrators grant the system-domain roles)';

/**
 * The fields teams and role groups share (published Team / RoleGroup). PUT and PATCH take any subset
 * (written out, not PartialType, so null stays invalid where a field is not nullable).
 */
class GroupLikeFields {
  @StringField({ required: false, nullable: true, maxLength: 200 }) alias?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) description?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200, description: 'An outside system’s id' })
  external_id?: string | null;
  @EnumField(USER_TYPES, {
    required: false,
    nullable: true,
    description: 'The type given to users who join through it',
  })
  default_user_type?: string | null;
}

export class CreateTeamDto extends GroupLikeFields {
  @StringField({ minLength: 1, maxLength: 200, description: 'Unique among the domain’s teams' })
  name!: string;
}

export class UpdateTeamDto extends GroupLikeFields {
  @StringField({ required: false, minLength: 1, maxLength: 200 }) name?: string;
}

class RoleFields extends GroupLikeFields {
  @RolesField(`${ROLES_DESCRIPTION}; none when left out`) roles?: string[];
  @StringArrayField({ required: false, maxItems: 50, itemMaxLength: 100, description: 'Labels for pickers' })
  role_categories?: string[];
}

export class CreateRoleGroupDto extends RoleFields {
  @StringField({ minLength: 1, maxLength: 200, description: 'Unique among the domain’s role groups' })
  name!: string;
}

export class UpdateRoleGroupDto extends RoleFields {
  @StringField({ required: false, minLength: 1, maxLength: 200 }) name?: string;
}

class GroupLikeDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) alias!: string | null;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ nullable: true, type: String }) external_id!: string | null;
  @ApiProperty({ nullable: true, type: String, enum: USER_TYPES }) default_user_type!: string | null;
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({
    type: [String],
    format: 'uuid',
    readOnly: true,
    description: 'Its members (users of this domain)',
  })
  member_ids!: string[];
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_modified!: string;
}

export class TeamDto extends GroupLikeDto {
  @ApiProperty({ nullable: true, type: String, readOnly: true, description: 'Where its logo is served' })
  logo!: string | null;
}

export class RoleGroupDto extends GroupLikeDto {
  @ApiProperty({ type: [String], enum: ALL_ROLES }) roles!: string[];
  @ApiProperty({ type: [String] }) role_categories!: string[];
}

export class TeamListDto extends ListEnvelopeDto(TeamDto) {}
export class RoleGroupListDto extends ListEnvelopeDto(RoleGroupDto) {}

/** Any group-like thing in the basic form (id, name, and which kind it is), for pickers. */
export class GroupLikeBasicDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ['GROUP', 'TEAM', 'ROLE_GROUP'], readOnly: true }) kind!: string;
}

export class GroupLikeBasicListDto extends ListEnvelopeDto(GroupLikeBasicDto) {}
