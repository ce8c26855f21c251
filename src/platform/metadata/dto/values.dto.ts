import { ApiProperty } from '@nestjs/swagger';
import { IsObject } from 'class-validator';
import { EnumField } from '../../../base/common/validation/fields.js';
import { MODES, type Mode } from '../metadata-values.js';

const VALUE = {
  description: 'A string, number or boolean',
  oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
};

/** A field's values as a body sends them: `[{value}]`, at most 100. */
const VALUES_IN = {
  type: 'array',
  maxItems: 100,
  items: { type: 'object', required: ['value'], properties: { value: VALUE } },
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
      properties: { field_values: VALUES_IN },
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

const ENTRY = {
  type: 'object',
  required: ['field_values'],
  properties: {
    field_values: VALUES_IN,
    mode: {
      type: 'string',
      enum: ['overwrite', 'append'],
      description: 'This field’s mode (over the request’s)',
    },
  },
};

/** Body of PUT /API/metadata/v1/{object_type}/{object_id}/. */
export class ObjectValuesBodyDto {
  @ApiProperty({
    type: 'object',
    maxProperties: 200,
    description:
      'Keyed by registered field name (not read-only ones); each {field_values: [{value}], mode?}, values of the field’s field_type. overwrite replaces the field’s values (an empty field_values clears it), append adds to them; fields not named keep their values.',
    additionalProperties: ENTRY,
  })
  @IsObject({ message: 'must be an object keyed by field name' })
  metadata_values!: Record<string, unknown>;

  @EnumField(MODES, { required: false, description: 'Default overwrite; a field’s own mode wins' })
  mode?: Mode;
}

/** The metadata of an object (MetadataValuesSchema): its values of registered fields. */
export class MetadataValuesDto {
  @ApiProperty({ format: 'uuid' }) object_id!: string;
  @ApiProperty({ enum: ['assets', 'collections'] }) object_type!: string;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The asset version the values belong to (null for collections)',
  })
  version_id!: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'Always null: values are set synchronously' })
  job_id!: string | null;
  @ApiProperty({
    type: 'object',
    description: 'The fields that have values: {field_values: [{value}], date_created, date_modified}',
    additionalProperties: {
      type: 'object',
      properties: {
        field_values: { type: 'array', items: { type: 'object', properties: { value: VALUE } } },
        date_created: { type: 'string', format: 'date-time' },
        date_modified: { type: 'string', format: 'date-time' },
      },
    },
  })
  metadata_values!: Record<
    string,
    { field_values: { value: unknown }[]; date_created: string; date_modified: string }
  >;
  @ApiProperty({ format: 'date-time', description: 'When the version (or the collection) was created' })
  date_created!: string;
  @ApiProperty({ format: 'date-time', description: 'The latest change of these values' })
  date_modified!: string;
}
