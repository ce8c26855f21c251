import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { AuthErrors } from '../auth/auth.errors.js';

import { isUuid } from '../validation/uuid.js';

/** "approved_instance_id" → "Approved instance": what a 404 calls the entity a path parameter names. */
export function labelOfParam(param: string | undefined): string {
  const words = (param ?? 'id').replace(/_id$/, '').replace(/_/g, ' ').trim() || 'Resource';
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Path ids: every id is a UUID, so a malformed one names nothing and is a 404 ("App not found"), as an
 * unknown id is. That also makes a literal segment that is not a route (`/v1/users/nonsense/`) a 404, never a
 * 400 from the `{id}` route that caught it (docs/interface.md, "Wire conventions"). The guard's ACL step
 * answers the same for routes that name their entity, before any pipe runs. `label` overrides the name
 * derived from the parameter.
 */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  constructor(private readonly label?: string) {}

  transform(value: string, metadata: ArgumentMetadata): string {
    if (!isUuid(value)) throw AuthErrors.NOT_FOUND(this.label ?? labelOfParam(metadata.data));
    return value;
  }
}
