import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';

/** An optional boolean query parameter: `true` or `false` as text (anything else is a 400). */
export function QueryFlag(description: string): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ type: Boolean, description })(target, key);
    Transform(({ value }: { value: unknown }) =>
      value === 'true' ? true : value === 'false' ? false : value,
    )(target, key);
    IsOptional()(target, key);
    IsBoolean({ message: 'must be true or false' })(target, key);
  };
}
