import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, ValidateBy, ValidateNested } from 'class-validator';
import { AssetDto } from '../../assets/dto/asset.dto.js';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import {
  EnumField,
  IntField,
  StringArrayField,
  StringField,
} from '../../../base/common/validation/fields.js';
import { FacetDto } from '../../../accounts/system-domains/dto/system-domain.dto.js';
import { SEARCH_SORTABLE } from '../asset-search.js';

export const MAX_QUERY_LENGTH = 1000;
export const DOC_TYPES = ['assets'] as const;

export class SearchSortDto {
  @EnumField(SEARCH_SORTABLE, { description: '_score is the relevance to query' }) name!: string;
  @EnumField(['asc', 'desc'], { required: false, description: 'Default asc' }) order?: string;
}

export class SearchTermDto {
  @StringField({
    minLength: 1,
    maxLength: 120,
    description: 'An asset field (id, title, type, status, …) or metadata.<field>',
  })
  name!: string;
  @ApiProperty({ oneOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }] })
  @ValidateBy({
    name: 'scalar',
    validator: {
      validate: (v: unknown) =>
        (typeof v === 'string' && v.length <= 1000) ||
        (typeof v === 'number' && Number.isFinite(v)) ||
        typeof v === 'boolean',
      defaultMessage: () => 'must be a string of at most 1000 characters, a number or a boolean',
    },
  })
  value!: string | number | boolean;
}

function Nested(type: new () => object, description: string, maxItems: number): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [type], description, maxItems }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(maxItems),
    ValidateNested({ each: true }),
    Type(() => type),
  );
}

export class SearchFilterDto {
  @EnumField(['and', 'or'], { required: false, description: 'How the terms combine; default and' })
  operator?: string;
  @Nested(SearchTermDto, 'Exact matches', 20) terms?: SearchTermDto[];
}

/** Body of POST /API/search/v1/search/. */
export class SearchBodyDto {
  @StringField({
    required: false,
    nullable: true,
    maxLength: MAX_QUERY_LENGTH,
    description:
      'Words found in titles and metadata values (websearch syntax: "a phrase", or, -excluded); empty: every asset the caller may read',
  })
  query?: string | null;
  @StringArrayField({ required: false, in: DOC_TYPES, maxItems: 5, description: 'Default [assets]' })
  doc_types?: string[];
  @Nested(SearchSortDto, 'Default: relevance with a query, else newest first; the id breaks ties', 5)
  sort?: SearchSortDto[];
  @ApiPropertyOptional({ type: SearchFilterDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => SearchFilterDto)
  filter?: SearchFilterDto;
  @IntField({ min: 1, max: 10000, required: false, description: 'Page number (over the query string’s)' })
  page?: number;
  @IntField({ min: 1, max: 1000, required: false, description: 'Items per page (over the query string’s)' })
  per_page?: number;
}

/** page and per_page may come in the query string (some clients send them in the body). */
export class SearchQueryDto {
  @IntField({ min: 1, max: 10000, required: false, description: 'Page number, 1 to 10000' }) page?: number;
  @IntField({ min: 1, max: 1000, required: false, description: 'Items per page, 1 to 1000' })
  per_page?: number;
}

export class SearchHitDto extends AssetDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description:
      'Matching fragments per field (title, metadata.<field>), HTML-escaped, with the matches in <em>',
  })
  _highlight!: Record<string, string[]>;
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'array',
      items: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    },
    description: 'The values of the current version’s metadata fields: field → its values',
  })
  metadata!: Record<string, unknown[]>;
}

export class SearchFacetsDto {
  @ApiProperty({ type: FacetDto, description: 'Counts per type over every match' }) type!: FacetDto;
  @ApiProperty({ type: FacetDto, description: 'Counts per status' }) status!: FacetDto;
}

export class SearchResultDto extends ListEnvelopeDto(SearchHitDto) {
  @ApiProperty({ type: SearchFacetsDto }) facets!: SearchFacetsDto;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null: pages are numbered (page, per_page); no scroll cursor is kept',
  })
  scroll_id!: string | null;
}
