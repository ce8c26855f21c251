import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsISO8601,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { emailProblem, normalizeEmail } from './email-rules.js';

/**
 * Composite decorators: each applies the class-validator rules and the matching OpenAPI property at once,
 * so the document can never disagree with what the API accepts.
 */
interface Common {
  required?: boolean;
  nullable?: boolean;
  description?: string;
  example?: unknown;
}

function base(o: Common, api: Record<string, unknown>): PropertyDecorator[] {
  const required = o.required ?? true;
  const meta = { ...api, nullable: o.nullable, description: o.description, example: o.example };
  const decorators: PropertyDecorator[] = [required ? ApiProperty(meta) : ApiPropertyOptional(meta)];
  if (!required && o.nullable) decorators.push(IsOptional());
  else if (!required) decorators.push(ValidateIf((_o, v) => v !== undefined));
  else if (o.nullable) decorators.push(ValidateIf((_o, v) => v !== null));
  return decorators;
}

export function StringField(o: Common & { minLength?: number; maxLength?: number } = {}): PropertyDecorator {
  return applyDecorators(
    ...base(o, { type: String, minLength: o.minLength, maxLength: o.maxLength ?? 1000 }),
    IsString(),
    ...(o.minLength ? [MinLength(o.minLength)] : []),
    MaxLength(o.maxLength ?? 1000),
  );
}

export function EmailField(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    ...base(o, { type: String, format: 'email', maxLength: 254 }),
    // NFKC, lower case; invisible, direction-control and mixed-script look-alikes refused (email-rules.ts)
    Transform(({ value }) => (typeof value === 'string' ? normalizeEmail(value) : value)),
    IsEmail({ require_tld: false }, { message: 'must be a valid email address' }),
    ValidateBy({
      name: 'plainEmail',
      validator: {
        validate: (v: unknown) => typeof v !== 'string' || emailProblem(v) === null,
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? (emailProblem(args.value) ?? '')
            : 'must be a valid email address',
      },
    }),
    MaxLength(254),
  );
}

export function PasswordField(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    ...base(o, { type: String, format: 'password', writeOnly: true, maxLength: 1024 }),
    IsString(),
    MaxLength(1024),
  );
}

export function UuidField(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    ...base(o, { type: String, format: 'uuid' }),
    IsUUID('all', { message: 'must be a UUID' }),
  );
}

export function IntField(o: Common & { min?: number; max?: number } = {}): PropertyDecorator {
  return applyDecorators(
    ...base(o, { type: 'integer', format: 'int32', minimum: o.min, maximum: o.max }),
    // query strings arrive as text: only plain decimal digits become a number (Number() would also take
    // "0x10", "1e3" and " 5"); anything else stays text and fails IsInt
    Transform(({ value }) =>
      typeof value === 'string' && /^-?[0-9]{1,15}$/.test(value) ? Number(value) : value,
    ),
    IsInt({ message: 'must be an integer' }),
    ...(o.min !== undefined ? [Min(o.min)] : []),
    ...(o.max !== undefined ? [Max(o.max)] : []),
  );
}

export function NumberField(o: Common & { min?: number; max?: number } = {}): PropertyDecorator {
  return applyDecorators(
    ...base(o, { type: 'number', minimum: o.min, maximum: o.max }),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    ...(o.min !== undefined ? [Min(o.min)] : []),
    ...(o.max !== undefined ? [Max(o.max)] : []),
  );
}

export function BoolField(o: Common = {}): PropertyDecorator {
  return applyDecorators(...base(o, { type: Boolean }), IsBoolean({ message: 'must be true or false' }));
}

export function EnumField(
  values: readonly string[],
  o: Common & { enumName?: string } = {},
): PropertyDecorator {
  return applyDecorators(
    ...base(o, { enum: [...values], enumName: o.enumName }),
    IsIn([...values], { message: `must be one of ${values.join(', ')}` }),
  );
}

export function StringArrayField(
  o: Common & { maxItems?: number; itemMaxLength?: number; in?: readonly string[] } = {},
): PropertyDecorator {
  const each = { each: true };
  return applyDecorators(
    ...base(o, {
      type: [String],
      maxItems: o.maxItems ?? 100,
      ...(o.in ? { items: { enum: [...o.in] } } : {}),
    }),
    IsArray(),
    ArrayMaxSize(o.maxItems ?? 100),
    IsString(each),
    MaxLength(o.itemMaxLength ?? 2000, each),
    ...(o.in
      ? [IsIn([...o.in], { each: true, message: `each value must be one of ${o.in.join(', ')}` })]
      : []),
  );
}

export function ObjectField(o: Common = {}): PropertyDecorator {
  return applyDecorators(...base(o, { type: 'object', additionalProperties: true }), IsObject());
}

export function DateTimeField(o: Common = {}): PropertyDecorator {
  return applyDecorators(
    ...base(o, { type: String, format: 'date-time' }),
    IsISO8601({ strict: true }, { message: 'must be an ISO 8601 date-time' }),
  );
}
