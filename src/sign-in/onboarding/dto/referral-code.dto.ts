import { ApiProperty } from '@nestjs/swagger';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import {
  BoolField,
  DateTimeField,
  EnumField,
  IntField,
  NumberField,
  StringField,
  UuidField,
} from '../../../base/common/validation/fields.js';
import { BILLING_TIERS, type BillingTier } from '../../../base/model/system-domain.entity.js';
import { ReferralCodeField } from './fields.js';

/** Body of POST /v1/referral_codes/ (the spec's ReferralCode). */
export class CreateReferralCodeDto {
  @ReferralCodeField({ description: 'Unique case-insensitively; 3 to 64 letters, digits, "_" or "-"' })
  code!: string;
  @DateTimeField({ description: 'After this instant the code can no longer be used (it stays listed)' })
  valid_to!: string;
  @NumberField({ min: 0, max: 1e12 }) value!: number;
  @EnumField(BILLING_TIERS, {
    required: false,
    nullable: true,
    description: 'Given to domains created with it',
  })
  billing_tier?: BillingTier | null;
  @IntField({ required: false, nullable: true, min: 0, max: 36500 }) credit_expiry_days?: number | null;
  @BoolField({ required: false, nullable: true, description: 'DELETE refuses the code (400); default false' })
  do_not_delete?: boolean | null;
  @DateTimeField({ required: false, nullable: true, description: 'Given to domains created with it' })
  freeze_date?: string | null;
  @BoolField({ required: false, nullable: true, description: 'Given to domains created with it' })
  is_plg?: boolean | null;
  @UuidField({
    required: false,
    nullable: true,
    description:
      'An existing domain whose administrators may create domains with this code (POST /v1/system_domains/referral_code/{code}/)',
  })
  manage_system_domain_id?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) billing_customer_id?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) crm_id?: string | null;
}

export class ReferralCodeDto {
  @ApiProperty() code!: string;
  @ApiProperty({ format: 'date-time' }) valid_to!: string;
  @ApiProperty() value!: number;
  @ApiProperty({ enum: BILLING_TIERS, nullable: true }) billing_tier!: BillingTier | null;
  @ApiProperty({ type: 'integer', nullable: true }) credit_expiry_days!: number | null;
  @ApiProperty() do_not_delete!: boolean;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) freeze_date!: string | null;
  @ApiProperty({ nullable: true, type: Boolean }) is_plg!: boolean | null;
  @ApiProperty({ format: 'uuid', nullable: true, type: String }) manage_system_domain_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) billing_customer_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) crm_id!: string | null;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_modified!: string;
}

export class ReferralCodeListDto extends ListEnvelopeDto(ReferralCodeDto) {}
