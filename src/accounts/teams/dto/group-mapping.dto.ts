import { ApiProperty } from '@nestjs/swagger';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { StringField, UuidField } from '../../../base/common/validation/fields.js';

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

export class GroupReindexDto {
  @ApiProperty({
    format: 'uuid',
    description: 'The request’s id; the webhook event carries it as data.reindex_id',
  })
  id!: string;
  @ApiProperty({ format: 'uuid' }) group_id!: string;
  @ApiProperty({
    format: 'uuid',
    description:
      'The id of the reindex job handed to the platform’s indexer: the same as id, and data.job_id (and data.reindex_id) of the webhook event that carries the request. This service keeps no index and no job record of it (the jobs service answers 404 for it)',
  })
  job_id!: string;
  @ApiProperty({
    enum: ['READY'],
    description: 'READY: the request is recorded and waits for the indexer (the published job status list)',
  })
  status!: 'READY';
}
