import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateNested } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import { BoolField, StringArrayField, StringField } from '../../../base/common/validation/fields.js';

export const MAX_VIEW_FIELDS = 200;

/** One field of a view (the spec's view_fields items). */
export class ViewFieldDto {
  @StringField({
    minLength: 1,
    maxLength: 100,
    description: 'The field’s key in metadata_values; unique in the view',
  })
  name!: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) label?: string | null;
  @BoolField({ required: false, description: 'Default false' }) auto_set?: boolean;
  @BoolField({ required: false, description: 'Default false' }) hide_if_not_set?: boolean;
  @StringField({ required: false, nullable: true, maxLength: 200 }) mapped_field_name?: string | null;
  @BoolField({
    required: false,
    description: 'Default false: clients may not set the field through the view',
  })
  read_only?: boolean;
  @BoolField({ required: false, description: 'Default false: the field must have a value after a PUT' })
  required?: boolean;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) source_url?: string | null;
}

function ViewFields(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: [ViewFieldDto], maxItems: MAX_VIEW_FIELDS }),
    IsArray(),
    ArrayMaxSize(MAX_VIEW_FIELDS),
    ValidateNested({ each: true }),
    Type(() => ViewFieldDto),
  );
}

/** Body of POST /API/metadata/v1/views/ and of PUT …/views/{view_id}/ (the whole view). */
export class ViewBodyDto {
  @StringField({ minLength: 1, maxLength: 200 }) name!: string;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) description?: string | null;
  @ViewFields() view_fields!: ViewFieldDto[];
}

export class ViewFieldOutDto {
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) label!: string | null;
  @ApiProperty() auto_set!: boolean;
  @ApiProperty() hide_if_not_set!: boolean;
  @ApiProperty({ nullable: true, type: String }) mapped_field_name!: string | null;
  @ApiProperty() read_only!: boolean;
  @ApiProperty() required!: boolean;
  @ApiProperty({ nullable: true, type: String }) source_url!: string | null;
}

export class ViewDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ type: [ViewFieldOutDto] }) view_fields!: ViewFieldOutDto[];
  @ApiProperty({ format: 'uuid', readOnly: true }) system_domain_id!: string;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}

export class ViewListDto extends ListEnvelopeDto(ViewDto) {}

export class ViewListQueryDto extends PageQueryDto {
  @StringField({ required: false, maxLength: 200, description: 'Case-insensitive substring of the name' })
  query?: string;
}

/** Body of POST /API/metadata/v1/assets/categories/. */
export class CreateCategoryDto {
  @StringField({ minLength: 1, maxLength: 200, description: 'Unique among the domain’s asset categories' })
  name!: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) label?: string | null;
  @StringArrayField({
    required: false,
    maxItems: 100,
    itemMaxLength: 36,
    description: 'Ids of views of the domain (uuid)',
  })
  view_ids?: string[];
}

export class CategoryDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) label!: string | null;
  @ApiProperty({ enum: ['assets'] }) object_type!: string;
  @ApiProperty({ type: [String], format: 'uuid' }) view_ids!: string[];
  @ApiProperty({ format: 'date-time' }) date_created!: string;
  @ApiProperty({ format: 'date-time' }) date_modified!: string;
}

export class CategoryListDto extends ListEnvelopeDto(CategoryDto) {}
