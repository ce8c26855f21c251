import type { ValidationError } from 'class-validator';
import { RequestErrors } from './request.errors.js';
import { ApiError } from './api-error.js';

/** class-validator errors → `{errors: {"field.nested": "message"}}`, first message per field. */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    if (e.constraints) {
      const msgs = Object.values(e.constraints);
      // whitelist violations read better as "unknown field" than class-validator's wording
      out[path] = e.constraints.whitelistValidation ? `${e.property} is not a known field` : msgs[0];
    }
    if (e.children?.length) Object.assign(out, flattenValidationErrors(e.children, path));
  }
  return out;
}

export function validationExceptionFactory(errors: ValidationError[]): ApiError {
  return RequestErrors.INVALID(flattenValidationErrors(errors));
}
