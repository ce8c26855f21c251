import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { StringField } from '../../../base/common/validation/fields.js';
import { HttpsUrlField } from './fields.js';

export const SLUG_SHAPE = /^[a-z0-9][a-z0-9-]{0,99}$/;
const ROUTE_SHAPE = /^\/[^\s]{0,499}$/;

export class ContentQueryDto {
  @StringField({
    minLength: 1,
    maxLength: 500,
    description: 'The registration page route, e.g. /signup/trial',
  })
  page_route!: string;
}

/** Body of PUT /v1/registrations/content/{slug}/ (replaces the entry). */
export class WebflowContentBodyDto {
  @StringField({ minLength: 1, maxLength: 500, description: 'The page route the entry is shown on; unique' })
  @Matches(ROUTE_SHAPE, { message: 'must be a path starting with "/" and without spaces' })
  page_route!: string;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) caption?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) category?: string | null;
  @HttpsUrlField({ required: false, nullable: true }) image?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) name?: string | null;
}

/** Body of POST /v1/registrations/content/. */
export class CreateWebflowContentDto extends WebflowContentBodyDto {
  @StringField({ minLength: 1, maxLength: 100, description: 'Lower-case letters, digits and "-"; unique' })
  @Matches(SLUG_SHAPE, {
    message: 'must be lower-case letters, digits and "-", starting with a letter or digit',
  })
  slug!: string;
}

/** The spec's WebflowContent: what a registration page shows. */
export class WebflowContentDto {
  @ApiProperty() slug!: string;
  @ApiProperty({ nullable: true, type: String }) caption!: string | null;
  @ApiProperty({ nullable: true, type: String }) category!: string | null;
  @ApiProperty({ nullable: true, type: String }) image!: string | null;
  @ApiProperty({ nullable: true, type: String }) name!: string | null;
}

/** An entry as operators manage it. */
export class WebflowContentEntryDto extends WebflowContentDto {
  @ApiProperty() page_route!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_modified!: string;
}

export class WebflowContentEntryListDto extends ListEnvelopeDto(WebflowContentEntryDto) {}
