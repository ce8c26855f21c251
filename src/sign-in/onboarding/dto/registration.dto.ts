import { ApiProperty, PickType } from '@nestjs/swagger';
import { ListEnvelopeDto } from '../../../base/common/http/list-envelope.dto.js';
import { PageQueryDto } from '../../../base/common/http/pagination.dto.js';
import { BoolField, EmailField, PasswordField, StringField } from '../../../base/common/validation/fields.js';
import { CountryField } from './fields.js';

/** Body of POST /v1/registrations/ (the spec's Registration). */
export class RegistrationBodyDto {
  @CountryField() country!: string;
  @EmailField() email!: string;
  @StringField({ minLength: 1, maxLength: 200 }) first_name!: string;
  @StringField({ minLength: 1, maxLength: 200 }) last_name!: string;
  @PasswordField({ description: 'Judged by the default password rules, including the common-password check' })
  password!: string;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 200,
    description: 'The new domain\'s name (default: "<first_name>\'s domain")',
  })
  company_name?: string | null;
  @BoolField({ required: false, nullable: true }) email_marketing_consent?: boolean | null;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 200,
    description: 'From POST /v1/marketplace/signup/; consumed by the verification',
  })
  marketplace_signup_nonce?: string | null;
  @StringField({
    required: false,
    nullable: true,
    maxLength: 64,
    description: 'Must exist and be valid (400 otherwise, the same answer for unknown and expired codes)',
  })
  referral_code?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) billing_customer_id?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) billing_subscription_id?: string | null;
  @StringField({ required: false, nullable: true, maxLength: 200 }) payments_id?: string | null;
}

/** What POST /v1/registrations/ answers: the registration as sent, never the password. */
export class RegistrationDto {
  @ApiProperty({ format: 'uuid', readOnly: true }) id!: string;
  @ApiProperty({ readOnly: true, description: 'Where the new domain will be served' }) base_url!: string;
  @ApiProperty({ format: 'date-time', readOnly: true }) date_created!: string;
  @ApiProperty() country!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty() first_name!: string;
  @ApiProperty() last_name!: string;
  @ApiProperty({ nullable: true, type: String }) company_name!: string | null;
  @ApiProperty({ nullable: true, type: Boolean }) email_marketing_consent!: boolean | null;
  @ApiProperty({ nullable: true, type: String }) referral_code!: string | null;
  @ApiProperty({ nullable: true, type: String }) billing_customer_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) billing_subscription_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) payments_id!: string | null;
  @ApiProperty({ nullable: true, type: String }) marketplace_signup_nonce!: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'Always null: the published model shares this field with the request; the password never comes back',
  })
  password!: null;
}

export class CountriesQueryDto extends PickType(PageQueryDto, ['page', 'per_page'] as const) {
  @StringField({
    required: false,
    maxLength: 100,
    description: 'Case-insensitive: an exact alpha2, alpha3 or numeric code first, then names containing it',
  })
  query?: string;
}

/** The spec's Country (ISO 3166-1, English names). */
export class CountryDto {
  @ApiProperty({ description: 'Official English name' }) name!: string;
  @ApiProperty({ example: 'DE' }) alpha2!: string;
  @ApiProperty({ example: 'DEU' }) alpha3!: string;
  @ApiProperty({ description: 'The common short name where the data has one (e.g. "Taiwan"), else the name' })
  apolitical_name!: string;
  @ApiProperty({ example: '276' }) numeric!: string;
}

export class CountryListDto extends ListEnvelopeDto(CountryDto) {}
