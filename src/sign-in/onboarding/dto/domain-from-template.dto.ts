import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AutoLoginDto } from '../../invitations/dto/invitation.dto.js';
import { EmailField, EnumField, PasswordField, StringField } from '../../../base/common/validation/fields.js';
import {
  BILLING_TIERS,
  DOMAIN_STATUSES,
  DOMAIN_TYPES,
  type BillingTier,
} from '../../../base/model/system-domain.entity.js';
import { CountryField } from './fields.js';

/** Body of POST /v1/system_domains/referral_code/{code}/ (the spec's FromReferralCode). */
export class FromReferralCodeDto {
  @StringField({ minLength: 1, maxLength: 200 }) name!: string;
  @CountryField() country_code!: string;
  @EmailField({ description: 'Must not have an account yet' }) admin_email!: string;
  @StringField({ minLength: 1, maxLength: 200 }) admin_first_name!: string;
  @StringField({ required: false, nullable: true, maxLength: 200 }) admin_last_name?: string | null;
  @PasswordField({ description: 'Judged by the default password rules (README, Passwords)' })
  admin_password!: string;
  @EnumField(BILLING_TIERS, {
    required: false,
    nullable: true,
    description: 'Used when the referral code sets no billing_tier',
  })
  billing_tier?: BillingTier | null;
  @StringField({ required: false, nullable: true, maxLength: 2000 }) description?: string | null;
}

/** The spec's SystemDomainFromTemplate: a domain just created, and its first administrator. */
export class SystemDomainFromTemplateDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() base_url!: string;
  @ApiProperty({ nullable: true, type: String }) description!: string | null;
  @ApiProperty({ enum: DOMAIN_STATUSES }) status!: string;
  @ApiProperty({ enum: DOMAIN_TYPES }) type!: string;
  @ApiProperty({ enum: BILLING_TIERS, nullable: true }) billing_tier!: string | null;
  @ApiProperty() custom_terms!: boolean;
  @ApiProperty({ format: 'uuid', readOnly: true }) admin_id!: string;
  @ApiProperty({ format: 'email' }) admin_email!: string;
  @ApiProperty({ nullable: true, type: String }) admin_first_name!: string | null;
  @ApiProperty({ nullable: true, type: String }) admin_last_name!: string | null;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_modified!: string;
}

/** The spec's VerificationResponse. */
export class VerificationResponseDto {
  @ApiProperty({ description: 'false when a second factor is owed: the person signs in and is asked for it' })
  auto_login!: boolean;
  @ApiProperty({ type: SystemDomainFromTemplateDto }) domain_data!: SystemDomainFromTemplateDto;
  @ApiPropertyOptional({ type: AutoLoginDto, nullable: true }) login_data!: AutoLoginDto | null;
}
