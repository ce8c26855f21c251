import { ApiProperty } from '@nestjs/swagger';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { StringField, UuidField } from '../../../base/common/validation/fields.js';
import { ReindexRequestDto } from '../../../base/common/http/reindex-request.dto.js';

/** GroupMapping: an identity provider's group name → a group of the domain. */
export class CreateGroupMappingDto {
  @StringField({
    minLength: 1,
    maxLength: 256,
    description:
      'The group name as the identity provider asserts it (attribute groups, memberOf, …); unique in the domain',
  })
  name!: string;
  @UuidField({ description: 'A group, team or role group of the domain; the caller must hold its roles' })
  group_id!: string;
}

export class GroupMappingDto {
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'uuid' }) group_id!: string;
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
}

export class GroupMappingListDto extends ListEnvelopeDto(GroupMappingDto) {}

export class GroupReindexDto extends ReindexRequestDto {
  @ApiProperty({ format: 'uuid' }) group_id!: string;
}
