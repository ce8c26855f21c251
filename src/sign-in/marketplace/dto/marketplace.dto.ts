import { ApiProperty } from '@nestjs/swagger';
import { StringField } from '../../../base/common/validation/fields.js';

/** A marketplace token is a compact JWT: a few kB at most. */
export const MARKETPLACE_TOKEN_MAX = 8192;

/**
 * MarketplaceSignup: one field named `x-<cloud>-marketplace-token` (the field name names the cloud, e.g.
 * `x-vendor_a-marketplace-token`) holding the marketplace's JWT. Documented here; the body is read by
 * `marketplaceTokenField` (the field name is not fixed, so no class validates it).
 */
export const MARKETPLACE_SIGNUP_SCHEMA = {
  type: 'object' as const,
  description:
    'MarketplaceSignup: exactly one field named `x-<cloud>-marketplace-token` (e.g. `x-vendor_a-marketplace-token`) ' +
    'carrying the marketplace’s signed JWT (claims: iss, aud, exp, jti, sub = customer id, entitlement_id)',
  properties: {
    // the published clients' field: the cloud configured as MARKETPLACE_GCP_* reads it
    'x-gcp-marketplace-token': {
      type: 'string' as const,
      maxLength: MARKETPLACE_TOKEN_MAX,
      description: 'The published field of the cloud named gcp (configured with MARKETPLACE_GCP_*)',
    },
  },
  additionalProperties: { type: 'string' as const, maxLength: MARKETPLACE_TOKEN_MAX },
  example: { 'x-vendor_a-marketplace-token': 'eyJhbGciOiJSUzI1NiIs…' },
};

/** The form a marketplace posts the buyer's browser to: the token field, or `token`. */
export const MARKETPLACE_FORM_SCHEMA = {
  type: 'object' as const,
  description:
    'The buyer’s browser form: `x-<cloud>-marketplace-token` (the cloud of the path) or `token`; no files',
  properties: {
    token: { type: 'string' as const, maxLength: MARKETPLACE_TOKEN_MAX },
  },
  additionalProperties: { type: 'string' as const, maxLength: MARKETPLACE_TOKEN_MAX },
};

export class MarketplaceSignupResultDto {
  @ApiProperty({
    description: 'Single-use nonce (256 bits) that registration, sign-in or a link consumes',
  })
  marketplace_signup_nonce!: string;
  @ApiProperty({ description: 'The marketplace the token came from', example: 'vendor_a' })
  cloud!: string;
  @ApiProperty({ format: 'date-time', description: 'When the nonce stops working' })
  expires!: string;
  @ApiProperty({ format: 'uri', description: 'The registration page, carrying the nonce' })
  registration_url!: string;
}

/** MarketplaceLink. */
export class MarketplaceLinkDto {
  @StringField({ maxLength: 500, description: 'The nonce from /v1/marketplace/signup/' })
  marketplace_signup_nonce!: string;
}

export class MarketplaceLinkResultDto {
  @ApiProperty({ format: 'uuid' }) system_domain_id!: string;
  @ApiProperty({ example: 'vendor_a' }) cloud!: string;
  @ApiProperty() marketplace_customer_id!: string;
  @ApiProperty() marketplace_entitlement_id!: string;
}
