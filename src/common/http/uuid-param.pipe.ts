import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { RequestErrors } from '../errors/request.errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Path ids: a malformed one is a 400 naming the parameter, in the same shape as body validation. */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!isUuid(value)) throw RequestErrors.INVALID({ [metadata.data ?? 'id']: 'must be a UUID' });
    return value;
  }
}
