import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsIn, IsUrl, Matches } from 'class-validator';
import { StringField } from '../../../base/common/validation/fields.js';
import { ALPHA2_CODES } from '../countries.js';

/** What a referral code may look like: 3 to 64 letters, digits, `_` and `-`. */
export const CODE_SHAPE = /^[A-Za-z0-9_-]{3,64}$/;

interface Common {
  required?: boolean;
  nullable?: boolean;
  description?: string;
}

/** An ISO 3166-1 alpha-2 code from the countries data (upper-cased first). */
export function CountryField(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    StringField({
      ...o,
      minLength: 2,
      maxLength: 2,
      description: o.description ?? 'ISO 3166-1 alpha-2 country code (GET /v1/registrations/countries/)',
      example: 'DE',
    }),
    Transform(({ value }) => (typeof value === 'string' ? value.toUpperCase() : value)),
    IsIn([...ALPHA2_CODES], { message: 'must be an ISO 3166-1 alpha-2 country code' }),
  );
}

export function ReferralCodeField(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    StringField({ ...o, minLength: 3, maxLength: 64, example: 'SPRING-2027' }),
    Matches(CODE_SHAPE, { message: 'must be 3 to 64 letters, digits, "_" or "-"' }),
  );
}

export function HttpsUrlField(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    StringField({ ...o, maxLength: 2000 }),
    IsUrl(
      { protocols: ['https'], require_protocol: true, require_tld: true },
      { message: 'must be an https URL' },
    ),
  );
}
