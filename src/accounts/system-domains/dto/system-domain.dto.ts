import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsObject,
  IsOptional,
  IsUrl,
  Matches,
  ValidateNested,
} from 'class-validator';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import {
  BoolField,
  DateTimeField,
  EnumField,
  IntField,
  NumberField,
  ObjectField,
  StringField,
} from '../../../base/common/validation/fields.js';
import {
  BILLING_TIERS,
  DOMAIN_STATUSES,
  DOMAIN_TYPES,
  INDUSTRIES,
} from '../../../base/model/system-domain.entity.js';

/** A feature name: lower case, digits and `_ . : -`, up to 64 characters. */
export const FEATURE_PATTERN = /^[a-z0-9][a-z0-9_.:-]{0,63}$/;
export const MAX_FEATURES = 100;
const INT32_MAX = 2_147_483_647;
/** ISO 8601 date-time with an explicit offset (`Z` or `±hh:mm`): a date without one is ambiguous. */
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

function FeaturesField(o: { required?: boolean } = {}): PropertyDecorator {
  const required = o.required ?? true;
  const api = {
    type: 'array' as const,
    maxItems: MAX_FEATURES,
    uniqueItems: true,
    items: { type: 'string' as const, pattern: FEATURE_PATTERN.source },
    description: `Feature flags: at most ${MAX_FEATURES}, unique, each matching ${FEATURE_PATTERN.source}`,
    example: ['ai.search', 'shield'],
  };
  return applyDecorators(
    required ? ApiProperty(api) : ApiPropertyOptional(api),
    ...(required ? [] : [IsOptional()]),
    IsArray({ message: 'must be an array of feature names' }),
    ArrayMaxSize(MAX_FEATURES, { message: `at most ${MAX_FEATURES} features` }),
    ArrayUnique({ message: 'features must be unique' }),
    Matches(FEATURE_PATTERN, { each: true, message: `each feature must match ${FEATURE_PATTERN.source}` }),
  );
}

function DateField(): PropertyDecorator {
  return applyDecorators(
    DateTimeField({ required: false, nullable: true, example: '2027-01-31T00:00:00+00:00' }),
    Matches(WITH_OFFSET, { message: 'must be an ISO 8601 date-time with an offset (Z or +hh:mm)' }),
  );
}

function UrlField(o: { required?: boolean } = {}): PropertyDecorator {
  return applyDecorators(
    StringField({ required: o.required ?? true, maxLength: 2000, example: 'https://acme.example.com' }),
    IsUrl(
      { require_tld: false, protocols: ['http', 'https'], require_protocol: true },
      { message: 'must be an http(s) URL' },
    ),
  );
}

const limit = () => IntField({ required: false, nullable: true, min: 0, max: INT32_MAX });

/** The spec's BillingLimits: non-negative integers or null, shield_enabled a boolean. */
export class BillingLimitsDto {
  @limit() ai_credits?: number | null;
  @limit() ai_object_detection_hours?: number | null;
  @limit() automation_tasks?: number | null;
  @limit() browse_users?: number | null;
  @limit() edge_transcoders?: number | null;
  @limit() egress_gb?: number | null;
  @limit() face_recognition_hours?: number | null;
  @limit() face_recognition_images?: number | null;
  @limit() image_recognition?: number | null;
  @limit() multiregion_storage_gb?: number | null;
  @limit() power_users?: number | null;
  @limit() proxy_storage_gb?: number | null;
  @limit() regional_storage_gb?: number | null;
  @BoolField({ required: false, nullable: true }) shield_enabled?: boolean | null;
  @limit() standard_users?: number | null;
  @limit() sync_session_max_clients?: number | null;
  @limit() transcription_hours?: number | null;
}

const str = (maxLength = 200) => StringField({ required: false, nullable: true, maxLength });
const flag = () => BoolField({ required: false });

/**
 * The super-admin form: `core` makes name and base_url required (POST, PUT), else every field is optional
 * (PATCH). Read-only fields (id, dates, creating_user_id, logo_url) are not accepted; unknown fields are dropped.
 */
function superAdminForm(core: boolean) {
  class SuperAdminForm {
    @StringField({ required: core, minLength: 1, maxLength: 200, example: 'Acme' }) name?: string;
    @UrlField({ required: core }) base_url?: string;
    @str(2000) description?: string | null;
    @EnumField(DOMAIN_STATUSES, { required: false, enumName: 'SystemDomainStatus' }) status?: string;
    @EnumField(DOMAIN_TYPES, { required: false, enumName: 'SystemDomainType' }) type?: string;
    @EnumField(BILLING_TIERS, { required: false, nullable: true, enumName: 'BillingTier' })
    billing_tier?: string | null;
    @ApiPropertyOptional({ type: BillingLimitsDto, nullable: true })
    @IsOptional()
    @IsObject({ message: 'must be a BillingLimits object' })
    @ValidateNested()
    @Type(() => BillingLimitsDto)
    billing_limits?: BillingLimitsDto | null;
    @EnumField(INDUSTRIES, { required: false, nullable: true, enumName: 'Industry' }) industry?:
      string | null;
    @flag() is_plg?: boolean;
    @flag() disable_cc_purchase?: boolean;
    @flag() has_preloaded_assets?: boolean;
    @DateField() contract_end_date?: string | null;
    @DateField() freeze_date?: string | null;
    @DateField() deactivate_date?: string | null;
    @str(100) country?: string | null;
    @flag() custom_terms?: boolean;
    @flag() disable_billing_page?: boolean;
    @flag() do_not_charge_edge_transcoder?: boolean;
    @flag() do_not_charge_remote_proxies?: boolean;
    @flag() do_not_charge_shield?: boolean;
    @flag() invoice_end_of_month?: boolean;
    @flag() is_template?: boolean;
    @NumberField({ required: false, nullable: true, min: 0, max: 100 }) discount_percent?: number | null;
    @FeaturesField({ required: false }) features?: string[];
    @str() marketplace_customer_id?: string | null;
    @str() marketplace_entitlement_id?: string | null;
    @str() billing_customer_id?: string | null;
    @str() billing_subscription_id?: string | null;
    @str() payments_id?: string | null;
    @str() crm_id?: string | null;
    @str() price_list?: string | null;
    @str() primary_region?: string | null;
    @str() referral_code?: string | null;
    @str(1000) warning_message?: string | null;
  }
  return SuperAdminForm;
}

/** PATCH: any subset of the super-admin form. */
export class UpdateSystemDomainDto extends superAdminForm(false) {}

/** POST and PUT: the super-admin form with name and base_url required. */
export class CreateSystemDomainDto extends superAdminForm(true) {
  declare name: string;
  declare base_url: string;
}

/** POST: the super-admin form, and whether the domain is an end-to-end test domain (set at creation only). */
export class NewSystemDomainDto extends CreateSystemDomainDto {
  @BoolField({
    required: false,
    description:
      'Default false. An end-to-end test domain: DELETE …/e2e/ removes only such domains. Set at creation only (PUT and PATCH ignore it)',
  })
  is_e2e?: boolean;
}

/** The spec's System domain, full form (plus `logo_url`). */
export class SystemDomainDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() base_url!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ enum: DOMAIN_STATUSES, enumName: 'SystemDomainStatus' }) status!: string;
  @ApiProperty({ enum: DOMAIN_TYPES, enumName: 'SystemDomainType' }) type!: string;
  @ApiProperty({ enum: BILLING_TIERS, enumName: 'BillingTier', nullable: true }) billing_tier!: string | null;
  @ApiProperty({ type: BillingLimitsDto, nullable: true }) billing_limits!: BillingLimitsDto | null;
  @ApiProperty({ enum: INDUSTRIES, enumName: 'Industry', nullable: true }) industry!: string | null;
  @ApiProperty() is_plg!: boolean;
  @ApiProperty() disable_cc_purchase!: boolean;
  @ApiProperty() has_preloaded_assets!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) contract_end_date!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) freeze_date!: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) deactivate_date!: string | null;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_modified!: string;
  @ApiProperty({ nullable: true, type: String }) country!: string | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String, readOnly: true }) creating_user_id!:
    string | null;
  @ApiProperty() custom_terms!: boolean;
  @ApiProperty() disable_billing_page!: boolean;
  @ApiProperty() do_not_charge_edge_transcoder!: boolean;
  @ApiProperty() do_not_charge_remote_proxies!: boolean;
  @ApiProperty() do_not_charge_shield!: boolean;
  @ApiProperty() invoice_end_of_month!: boolean;
  @ApiProperty() is_template!: boolean;
  @ApiProperty({ nullable: true, type: Number }) discount_percent!: number | null;
  @ApiProperty({ type: [String] }) features!: string[];
  @ApiProperty({ readOnly: true, description: 'Created as an end-to-end test domain (DELETE …/e2e/)' })
  is_e2e!: boolean;
  @ApiProperty({ nullable: true, type: String }) marketplace_customer_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) marketplace_entitlement_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) billing_customer_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) billing_subscription_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) payments_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) crm_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) price_list!: string | null;
  @ApiProperty({ nullable: true, type: String }) primary_region!: string | null;
  @ApiProperty({ nullable: true, type: String }) referral_code!: string | null;
  @ApiProperty({ nullable: true, type: String }) warning_message!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uri',
    readOnly: true,
    description: 'Where the logo is served (public); null when the domain has none',
  })
  logo_url!: string | null;
}

/** The spec's Basic form; BasicAdmin (the domain's administrators, super administrators) adds two dates. */
export class SystemDomainBasicDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: DOMAIN_TYPES, enumName: 'SystemDomainType' }) type!: string;
  @ApiProperty({ enum: BILLING_TIERS, enumName: 'BillingTier', nullable: true }) billing_tier!: string | null;
  @ApiProperty({ nullable: true, type: String }) country!: string | null;
  @ApiProperty({ type: [String] }) features!: string[];
  @ApiProperty() is_plg!: boolean;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiPropertyOptional({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'BasicAdmin form only (administrators of the domain, super administrators)',
  })
  contract_end_date?: string | null;
  @ApiPropertyOptional({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'BasicAdmin form only (administrators of the domain, super administrators)',
  })
  freeze_date?: string | null;
}

/** The spec's Profile: what a domain's administrators edit themselves. */
export class SystemDomainProfileDto {
  @EnumField(INDUSTRIES, { required: false, nullable: true, enumName: 'Industry' }) industry?: string | null;
}

/** The features' body (PUT) and answer: the answer also carries the parameters kept per feature. */
export class SystemDomainFeaturesDto {
  @FeaturesField() features!: string[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'object', additionalProperties: true },
    readOnly: true,
    description:
      'In answers: feature name → the parameters it was turned on with (POST …/features/); features without parameters are absent. Ignored in a PUT body (a PUT keeps the parameters of the features it keeps)',
  })
  parameters?: Record<string, Record<string, unknown>>;
}

/** A feature name as the published clients send it: upper or lower case, kept lower case (`WM_X` is `wm_x`). */
const FEATURE_NAME_ANY_CASE = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;

/** The published body of POST /v1/system_domains/{id}/features/: one feature to turn on. */
export class FeatureConfigDto {
  @ApiProperty({
    pattern: FEATURE_NAME_ANY_CASE.source,
    example: 'WM_PUBLISH_PANEL',
    description:
      'The feature name in any case: names are case-insensitive and kept lower case (WM_PUBLISH_PANEL is the feature wm_publish_panel)',
  })
  @Matches(FEATURE_NAME_ANY_CASE, { message: `must match ${FEATURE_NAME_ANY_CASE.source}` })
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.toLowerCase() : value))
  feature!: string;
  @ObjectField({
    required: false,
    nullable: true,
    description:
      'Kept with the feature and answered by GET …/features/ (the feature’s parameters become these; none, null or {}: none). At most 4096 bytes as JSON, nested at most 5 deep',
  })
  parameters?: Record<string, unknown> | null;
}

export class AddSystemDomainFeatureDto {
  @ApiProperty({ type: FeatureConfigDto })
  @IsObject({ message: 'must be an object {feature, parameters}' })
  @ValidateNested()
  @Type(() => FeatureConfigDto)
  config!: FeatureConfigDto;
}

/** The spec's ReindexSystemDomain. */
export class ReindexSystemDomainDto {
  @BoolField({
    required: false,
    description: 'Also copy the rebuilt index to the other data centre',
  })
  sync_to_another_dc?: boolean;
}

export class ReindexRequestDto {
  @ApiProperty({
    format: 'uuid',
    description: 'The request’s id; the webhook event carries it as data.reindex_id',
  })
  id!: string;
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
  @ApiProperty() sync_to_another_dc!: boolean;
  @ApiProperty({ format: 'date-time' }) date_created!: string;
}

export class LogoDto {
  @ApiProperty({ format: 'uri', description: 'The logo_url the image is now served at' }) logo!: string;
}

export class FacetBucketDto {
  @ApiProperty() key!: string;
  @ApiProperty({ type: 'integer', format: 'int64' }) doc_count!: number;
}

export class FacetDto {
  @ApiProperty({ type: [FacetBucketDto] }) buckets!: FacetBucketDto[];
  @ApiProperty({ type: 'integer' }) doc_count_error_upper_bound!: number;
  @ApiProperty({ type: 'integer' }) sum_other_doc_count!: number;
}

export class SystemDomainFacetsDto {
  @ApiProperty({ type: FacetDto, description: 'Counts per status over the filtered list' }) status!: FacetDto;
  @ApiProperty({ type: FacetDto, description: 'Counts per type' }) type!: FacetDto;
  @ApiProperty({ type: FacetDto, description: 'Counts per billing tier (domains without one not counted)' })
  billing_tier!: FacetDto;
}

export class SystemDomainListDto extends ListEnvelopeDto(SystemDomainDto) {
  @ApiProperty({ type: SystemDomainFacetsDto }) facets!: SystemDomainFacetsDto;
}

export class SystemDomainTemplateListDto extends ListEnvelopeDto(SystemDomainDto) {}

/** Comma-separated values of an enum in a query string (`statuses=ACTIVE,WARNING`); repeated keys too. */
function CsvEnumQuery(values: readonly string[], description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, description, example: values.slice(0, 2).join(',') }),
    Transform(({ value }) =>
      typeof value === 'string' || Array.isArray(value)
        ? String(value)
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : value,
    ),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(values.length * 2),
    IsIn([...values], { each: true, message: `each value must be one of ${values.join(', ')}` }),
  );
}

export class SystemDomainListQueryDto extends PageQueryDto {
  @StringField({
    required: false,
    maxLength: 200,
    description: 'Case-insensitive text found in name, base_url or description',
  })
  query?: string;
  @CsvEnumQuery(DOMAIN_STATUSES, `Comma-separated statuses (${DOMAIN_STATUSES.join(', ')})`)
  statuses?: string[];
  @CsvEnumQuery(DOMAIN_TYPES, `Comma-separated types (${DOMAIN_TYPES.join(', ')})`)
  types?: string[];
  @ApiPropertyOptional({ type: Boolean, description: 'Only templates (true) or only non-templates (false)' })
  @Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  is_template?: boolean;
}
