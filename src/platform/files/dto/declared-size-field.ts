import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';

/**
 * The size in bytes a body declares for the bytes to come (a file's, a proxy's): optional, else a whole
 * number from 0 up. The rules are applied in this order, so a value breaking several is answered with the
 * first one's message.
 */
export function DeclaredSizeField(o: { description: string; nullable?: boolean }): PropertyDecorator {
  return applyDecorators(
    Max(Number.MAX_SAFE_INTEGER),
    Min(0),
    IsInt({ message: 'must be an integer' }),
    ValidateIf((_o, v) => v !== undefined && v !== null),
    ApiPropertyOptional({
      type: 'integer',
      format: 'int64',
      minimum: 0,
      nullable: o.nullable,
      description: o.description,
    }),
  );
}
