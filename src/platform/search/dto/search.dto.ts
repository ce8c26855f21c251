import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, ValidateBy, ValidateNested } from 'class-validator';
import {
  BoolField,
  IntField,
  StringArrayField,
  StringField,
} from '../../../base/common/validation/fields.js';
import { FacetDto } from '../../../accounts/system-domains/dto/system-domain.dto.js';
import { SEARCH_DOC_TYPES } from '../asset-search.js';

export const MAX_QUERY_LENGTH = 1000;
export const DOC_TYPES = SEARCH_DOC_TYPES;
export const MAX_VALUE_IN = 1000;
const NAME_LENGTH = 200;

type Scalar = string | number | boolean | null;
const SCALAR_SCHEMA = {
  oneOf: [{ type: 'string', maxLength: 1000 }, { type: 'number' }, { type: 'boolean' }],
  nullable: true,
};
const isScalar = (v: unknown) =>
  v === null ||
  (typeof v === 'string' && v.length <= 1000) ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  typeof v === 'boolean';

/** A string matching one of `words` in any case (`AND`, `and`, `Or`). */
function AnyCase(words: string[], o: { required: boolean; description: string }): PropertyDecorator {
  const pattern = `^(${words.map((w) => [...w].map((c) => `[${c.toUpperCase()}${c}]`).join('')).join('|')})$`;
  const meta = { type: String, pattern, description: o.description };
  return applyDecorators(
    o.required ? ApiProperty(meta) : ApiPropertyOptional({ ...meta, nullable: true }),
    ...(o.required ? [] : [IsOptional()]),
    ValidateBy({
      name: 'anyCase',
      validator: {
        validate: (v: unknown) => typeof v === 'string' && words.includes(v.toLowerCase()),
        defaultMessage: () => `must be one of ${words.join(', ')} (any case)`,
      },
    }),
  );
}

function Scalars(description: string, maxItems: number): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: 'array', items: SCALAR_SCHEMA, maxItems, description, nullable: true }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(maxItems),
    ValidateBy({
      name: 'scalars',
      validator: {
        validate: (v: unknown) => Array.isArray(v) && v.every(isScalar),
        defaultMessage: () =>
          'each value must be a string (at most 1000 characters), a number, a boolean or null',
      },
    }),
  );
}

function Nested(type: () => new () => object, description: string, maxItems: number): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: () => [type()], description, maxItems, nullable: true }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(maxItems),
    ValidateNested({ each: true }),
    Type(type),
  );
}

const fieldName = (description: string) => StringField({ minLength: 1, maxLength: NAME_LENGTH, description });

export class SearchSortDto {
  @fieldName(
    '_score (relevance), a field of the documents (title, date_created, …), metadata.<field> or a metadata field name; a name no document has sorts as missing (last)',
  )
  name!: string;
  @AnyCase(['asc', 'desc'], { required: false, description: 'asc or desc, any case; default asc' })
  order?: string | null;
}

export class SearchRangeDto {
  @StringField({ required: false, nullable: true, maxLength: 100, description: 'Inclusive lower bound' })
  min?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 100, description: 'Inclusive upper bound' })
  max?: string | null;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 64,
    description: 'IANA zone or offset for date bounds without an offset (default UTC)',
  })
  timezone?: string | null;
}

export class SearchTermDto {
  @fieldName(
    'A document field (id, title, type, status, date_created, …), metadata.<field> or a metadata field name',
  )
  name!: string;
  @ApiPropertyOptional({ ...SCALAR_SCHEMA, description: 'Equals this value' })
  @IsOptional()
  @ValidateBy({
    name: 'scalar',
    validator: {
      validate: isScalar,
      defaultMessage: () => 'must be a string of at most 1000 characters, a number or a boolean',
    },
  })
  value?: Scalar;
  @Scalars('Equals one of these values', MAX_VALUE_IN) value_in?: Scalar[] | null;
  @ApiPropertyOptional({
    type: SearchRangeDto,
    nullable: true,
    description: 'Dates or numbers, bounds included',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => SearchRangeDto)
  range?: SearchRangeDto | null;
  @BoolField({ required: false, nullable: true, description: 'The field has a value' }) exists?:
    boolean | null;
  @BoolField({ required: false, nullable: true, description: 'The field has no value' }) missing?:
    boolean | null;
}

export class SearchFilterDto {
  @AnyCase(['and', 'or'], {
    required: false,
    description: 'How the terms and filters combine: AND or OR, any case; default AND',
  })
  operator?: string | null;
  @Nested(() => SearchTermDto, 'Terms', 50) terms?: SearchTermDto[] | null;
  @Nested(() => SearchFilterDto, 'Nested filters (at most 8 levels, 100 terms in all)', 20)
  filters?: SearchFilterDto[] | null;
}

export class SearchFacetFilterDto {
  @fieldName('type, status, doc_type, or any field a term may name') name!: string;
  @Scalars('The hit has one of these values', MAX_VALUE_IN) value_in?: Scalar[] | null;
}

/** Body of POST /API/search/v1/search/ (SearchCriteriaSchema). */
export class SearchBodyDto {
  @StringField({
    required: false,
    nullable: true,
    maxLength: MAX_QUERY_LENGTH,
    description:
      'Words found in titles and metadata values (websearch syntax: "a phrase", or, -excluded); empty: every document the caller may read',
  })
  query?: string | null;
  @StringArrayField({ required: false, in: DOC_TYPES, maxItems: 5, description: 'Default [assets]' })
  doc_types?: string[];
  @Nested(() => SearchSortDto, 'Default: relevance with a query, else newest first; the id breaks ties', 5)
  sort?: SearchSortDto[] | null;
  @ApiPropertyOptional({ type: SearchFilterDto, nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => SearchFilterDto)
  filter?: SearchFilterDto | null;
  @Nested(
    () => SearchFacetFilterDto,
    'Restrict the hits by facet values; a facet’s own counts ignore its filter',
    20,
  )
  facets_filters?: SearchFacetFilterDto[] | null;
  @StringArrayField({
    required: false,
    nullable: true,
    maxItems: 100,
    itemMaxLength: NAME_LENGTH,
    description: 'Only these fields of each hit (id always; metadata.<field> keeps one metadata field)',
  })
  include_fields?: string[] | null;
  @StringArrayField({
    required: false,
    nullable: true,
    maxItems: 100,
    itemMaxLength: NAME_LENGTH,
    description: 'Leave these fields out of each hit (never id)',
  })
  exclude_fields?: string[] | null;
  @Scalars('The search_after of the previous answer: the page starts after its last hit', 10)
  search_after?: Scalar[] | null;
  @StringArrayField({
    required: false,
    nullable: true,
    maxItems: 20,
    itemMaxLength: NAME_LENGTH,
    description: 'Accepted; the answer always carries the type, status and doc_type facets',
  })
  facets?: string[] | null;
  @StringArrayField({
    required: false,
    nullable: true,
    maxItems: 20,
    itemMaxLength: NAME_LENGTH,
    description: 'Accepted; the query searches titles and metadata values',
  })
  search_fields?: string[] | null;
  @StringField({ required: false, nullable: true, maxLength: 100, description: 'Accepted, not used' })
  metadata_view_id?: string | null;
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

/** A hit: the asset or collection as GET answers it (shaped by include_fields / exclude_fields). */
export type SearchHitDto = Record<string, unknown> & { id: string };

const HIT_SCHEMA = {
  type: 'object',
  required: ['id'],
  additionalProperties: true,
  description:
    'The asset or collection as GET answers it, plus doc_type, _highlight and metadata; include_fields and exclude_fields shape it (id always kept)',
  properties: {
    id: { type: 'string', format: 'uuid' },
    doc_type: { type: 'string', enum: [...SEARCH_DOC_TYPES] },
    object_type: { type: 'string' },
    title: { type: 'string' },
    _highlight: {
      type: 'object',
      additionalProperties: { type: 'array', items: { type: 'string' } },
      description:
        'Matching fragments per field (title, metadata.<field>), HTML-escaped, with the matches in <em>',
    },
    metadata: {
      type: 'object',
      additionalProperties: {
        type: 'array',
        items: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
      },
      description: 'The metadata values: field → its values',
    },
  },
};

export class SearchFacetsDto {
  @ApiProperty({ type: FacetDto, description: 'Counts per asset type' }) type!: FacetDto;
  @ApiProperty({ type: FacetDto, description: 'Counts per status' }) status!: FacetDto;
  @ApiProperty({ type: FacetDto, description: 'Counts per document type (assets, collections)' })
  doc_type!: FacetDto;
}

/** The list envelope (ListEnvelopeDto's fields) with hits that are assets or collections. */
export class SearchResultDto {
  @ApiProperty({ type: 'array', items: HIT_SCHEMA }) objects!: SearchHitDto[];
  @ApiProperty({ type: 'integer', format: 'int32' }) page!: number;
  @ApiProperty({ type: 'integer', format: 'int32' }) pages!: number;
  @ApiProperty({ type: 'integer', format: 'int32' }) per_page!: number;
  @ApiProperty({ type: 'integer', format: 'int64' }) total!: number;
  @ApiProperty({ nullable: true, type: String, description: 'Path starting with /API/' }) first_url!:
    string | null;
  @ApiProperty({ nullable: true, type: String }) last_url!: string | null;
  @ApiProperty({ nullable: true, type: String }) next_url!: string | null;
  @ApiProperty({ nullable: true, type: String }) prev_url!: string | null;
  @ApiProperty({ type: SearchFacetsDto }) facets!: SearchFacetsDto;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Always null: pages are numbered (page, per_page), or follow search_after',
  })
  scroll_id!: string | null;
  @ApiProperty({
    type: 'array',
    nullable: true,
    items: SCALAR_SCHEMA,
    description:
      'What the next call sends as search_after to get the page after this one (the last hit’s sort values, dates in microseconds since the epoch, then its id); null on the last page',
  })
  search_after!: Scalar[] | null;
}
