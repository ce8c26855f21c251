import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateIf, ValidateNested } from 'class-validator';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import { BoolField, EnumField, NumberField, StringField } from '../../../base/common/validation/fields.js';
import { FIELD_TYPES, type FieldType } from '../../../base/model/metadata.entity.js';

export const MAX_FIELD_OPTIONS = 500;
const NAME =
  'The field’s key in metadata_values, unique in the domain: a letter or _ first, then letters, digits, _ . - (at most 100)';
const TYPES = `One of ${FIELD_TYPES.join(', ')}. Values are checked against it: strings for string, string_exact, text, tag_cloud, url (http/https), email, date (YYYY-MM-DD), datetime (ISO 8601 with a zone) and drop_down (one of the options' values when it has options); numbers for integer and float (within min_value/max_value); true/false for boolean`;

/** One option of a drop_down field. */
export class FieldOptionDto {
  @StringField({ required: false, nullable: true, maxLength: 200 }) label?: string | null;
  @StringField({ minLength: 1, maxLength: 1000 }) value!: string;
}

function Options(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: [FieldOptionDto], maxItems: MAX_FIELD_OPTIONS, required: false }),
    ValidateIf((_o, v) => v !== undefined),
    IsArray(),
    ArrayMaxSize(MAX_FIELD_OPTIONS),
    ValidateNested({ each: true }),
    Type(() => FieldOptionDto),
  );
}

/** The optional properties of MetadataFieldSchema, as a body takes them. */
export class FieldPropsDto {
  @StringField({ required: false, nullable: true, maxLength: 2000 }) description?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) external_id?: string | null;
  @BoolField({ required: false, description: 'Default false' }) auto_set?: boolean;
  @BoolField({ required: false, description: 'Default false' }) hide_if_not_set?: boolean;
  @BoolField({ required: false, description: 'Default false' }) is_block_field?: boolean;
  @BoolField({ required: false, description: 'Default false' }) is_warning_field?: boolean;
  @StringField({ required: false, nullable: true, maxLength: 200 }) mapped_field_name?: string | null;
  @NumberField({ required: false, nullable: true, description: 'integer and float: the largest value' })
  max_value?: number | null;
  @NumberField({ required: false, nullable: true, description: 'integer and float: the smallest value' })
  min_value?: number | null;
  @BoolField({ required: false, description: 'Several values per object (default false: one)' })
  multi?: boolean;
  @Options() options?: FieldOptionDto[];
  @BoolField({ required: false, description: 'Default false: clients may not set the field’s values' })
  read_only?: boolean;
  @BoolField({ required: false, description: 'Default false' }) representative?: boolean;
  @BoolField({
    required: false,
    description: 'Default false: the field may not be emptied (and a view PUT must leave it set)',
  })
  required?: boolean;
  @BoolField({ required: false, description: 'Default false' }) sortable?: boolean;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) source_url?: string | null;
  @BoolField({ required: false, description: 'Default false' }) use_as_facet?: boolean;
  @StringField({ required: false, maxLength: 40, description: 'Read-only: ignored' }) date_created?: string;
  @StringField({ required: false, maxLength: 40, description: 'Read-only: ignored' }) date_modified?: string;
}

/** Body of POST /API/metadata/v1/fields/ (MetadataFieldSchema). */
export class CreateFieldDto extends FieldPropsDto {
  @StringField({ minLength: 1, maxLength: 150, description: NAME }) name!: string;
  @StringField({ minLength: 1, maxLength: 200 }) label!: string;
  @EnumField(FIELD_TYPES, { description: TYPES }) field_type!: FieldType;
}

/** Body of PUT and PATCH …/fields/{field_name}/: the properties to change (a field is not renamed). */
export class UpdateFieldDto extends FieldPropsDto {
  @StringField({ required: false, maxLength: 150, description: 'If given, the path’s name' }) name?: string;
  @StringField({ required: false, minLength: 1, maxLength: 200 }) label?: string;
  @EnumField(FIELD_TYPES, {
    required: false,
    description: `${TYPES}. It may change only while no object has values of the field (409)`,
  })
  field_type?: FieldType;
}

/**
 * An entry of a view's view_fields in a body: the name of a registered field, or a field to register with
 * these properties (field_type string and multi true unless given; label the name unless given).
 */
export class ViewFieldDto extends FieldPropsDto {
  @StringField({ minLength: 1, maxLength: 150, description: NAME }) name!: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) label?: string | null;
  @EnumField(FIELD_TYPES, { required: false, description: TYPES }) field_type?: FieldType;
}

export class FieldOptionOutDto {
  @ApiProperty({ nullable: true, type: String }) label!: string | null;
  @ApiProperty() value!: string;
}

/** A registered field (MetadataFieldSchema). */
export class FieldDto {
  @ApiProperty() name!: string;
  @ApiProperty() label!: string;
  @ApiProperty({ enum: FIELD_TYPES }) field_type!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ nullable: true, type: String }) external_id!: string | null;
  @ApiProperty() auto_set!: boolean;
  @ApiProperty() hide_if_not_set!: boolean;
  @ApiProperty() is_block_field!: boolean;
  @ApiProperty() is_warning_field!: boolean;
  @ApiProperty({ nullable: true, type: String }) mapped_field_name!: string | null;
  @ApiProperty({ nullable: true, type: Number }) max_value!: number | null;
  @ApiProperty({ nullable: true, type: Number }) min_value!: number | null;
  @ApiProperty() multi!: boolean;
  @ApiProperty({ type: [FieldOptionOutDto] }) options!: FieldOptionOutDto[];
  @ApiProperty() read_only!: boolean;
  @ApiProperty() representative!: boolean;
  @ApiProperty() required!: boolean;
  @ApiProperty() sortable!: boolean;
  @ApiProperty({ nullable: true, type: String }) source_url!: string | null;
  @ApiProperty() use_as_facet!: boolean;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}

export class FieldListDto extends ListEnvelopeDto(FieldDto) {}

export class FieldListQueryDto extends PageQueryDto {
  @StringField({
    required: false,
    maxLength: 200,
    description: 'Case-insensitive substring of the name or the label',
  })
  query?: string;
}
