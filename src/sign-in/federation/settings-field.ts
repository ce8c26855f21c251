import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, ValidateIf } from 'class-validator';

/**
 * The `settings` an administrator sends for a tenant's authenticator (a directory, an OpenID provider): an
 * object, documented as `type`, that the service judges as a whole. Not `required`: absent keeps the stored
 * ones (a PATCH) or takes the defaults.
 */
export function AuthenticatorSettingsField(type: new () => object, required: boolean): PropertyDecorator {
  return applyDecorators(
    required ? ApiProperty({ type }) : ApiPropertyOptional({ type }),
    ...(required ? [] : [ValidateIf((_o, v) => v !== undefined)]),
    IsObject({ message: 'must be an object' }),
  );
}
