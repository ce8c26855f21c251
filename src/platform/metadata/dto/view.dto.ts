import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateNested } from 'class-validator';
import { applyDecorators } from '@nestjs/common';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import { StringArrayField, StringField } from '../../../base/common/validation/fields.js';
import { FieldDto, ViewFieldDto } from './field.dto.js';

export const MAX_VIEW_FIELDS = 200;

function ViewFields(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: [ViewFieldDto],
      maxItems: MAX_VIEW_FIELDS,
      description:
        'Names of registered fields; an entry naming a field not registered yet registers it from its properties',
    }),
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

export class ViewDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({
    type: [FieldDto],
    description:
      'Each entry the registered field’s definition (GET …/fields/{field_name}/), in the view’s order',
  })
  view_fields!: FieldDto[];
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
