import { ApiProperty } from '@nestjs/swagger';
import { ALL_ROLES } from '../../../base/common/auth/roles.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import { StringArrayField, StringField } from '../../../base/common/validation/fields.js';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';

const ROLES_DESCRIPTION =
  'Role names; a caller may only grant roles they hold (so only super administrators grant the system-domain roles)';

/** A body's optional `roles`: names from ALL_ROLES, at most ALL_ROLES.length of them. */
export function RolesField(description: string): PropertyDecorator {
  return StringArrayField({ required: false, in: ALL_ROLES, maxItems: ALL_ROLES.length, description });
}

/** Body of POST /v1/groups/. */
export class CreateGroupDto {
  @StringField({ minLength: 1, maxLength: 200, description: 'Unique in the domain' }) name!: string;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) description?: string | null;
  @RolesField(`${ROLES_DESCRIPTION}; none when left out`) roles?: string[];
}

/** Body of PATCH and PUT /v1/groups/{group_id}/: any subset. Written out (not PartialType) so null stays invalid. */
export class UpdateGroupDto {
  @StringField({ required: false, minLength: 1, maxLength: 200, description: 'Unique in the domain' })
  name?: string;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) description?: string | null;
  @RolesField(ROLES_DESCRIPTION) roles?: string[];
}

export class GroupListQueryDto extends PageQueryDto {
  @StringField({ required: false, maxLength: 200, description: 'Case-insensitive substring of the name' })
  query?: string;
}

export class GroupDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ type: [String], enum: ALL_ROLES }) roles!: string[];
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({
    type: [String],
    format: 'uuid',
    readOnly: true,
    description: 'Ids of the group’s members (users of this domain)',
  })
  member_ids!: string[];
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_modified!: string;
}

export class GroupListDto extends ListEnvelopeDto(GroupDto) {}

/** A group as pickers need it: any member of the domain may list these (GET /v1/groups/basic/). */
export class GroupBasicDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() name!: string;
}

export class GroupBasicListDto extends ListEnvelopeDto(GroupBasicDto) {}
