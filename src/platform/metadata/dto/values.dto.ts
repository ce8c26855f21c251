import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';

const VALUE = {
  description: 'A string, number or boolean',
  oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
};

/** Body of PUT /API/metadata/v1/assets/{asset_id}/views/{view_id}/. */
export class MetadataValuesBodyDto {
  @ApiProperty({
    type: 'object',
    description:
      'Keyed by field name (fields of the view only; not read-only ones); each {field_values: [{value}]}. An empty field_values clears the field; fields not named keep their values.',
    additionalProperties: {
      type: 'object',
      required: ['field_values'],
      properties: {
        field_values: {
          type: 'array',
          maxItems: 100,
          items: { type: 'object', required: ['value'], properties: { value: VALUE } },
        },
      },
    },
  })
  @IsObject({ message: 'must be an object keyed by field name' })
  metadata_values!: Record<string, unknown>;
}

/** The metadata of an asset's current version through a view. */
export class AssetMetadataDto {
  @ApiProperty({ format: 'uuid' }) object_id!: string;
  @ApiProperty({ enum: ['assets'] }) object_type!: string;
  @ApiProperty({ format: 'uuid' }) view_id!: string;
  @ApiProperty({ format: 'uuid', description: 'The asset version the values belong to' }) version_id!: string;
  @ApiProperty({
    type: 'object',
    description: 'The view’s fields that have values: {field_values: [{value}], date_created}',
    additionalProperties: {
      type: 'object',
      properties: {
        field_values: {
          type: 'array',
          items: { type: 'object', properties: { value: VALUE } },
        },
        date_created: { type: 'string', format: 'date-time' },
      },
    },
  })
  metadata_values!: Record<string, { field_values: { value: unknown }[]; date_created: string }>;
  @ApiProperty({ format: 'date-time', description: 'When the version was created' }) date_created!: string;
  @ApiProperty({ format: 'date-time', description: 'The latest change of these values' })
  date_modified!: string;
}
