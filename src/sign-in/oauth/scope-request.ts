import { SCOPE_NAMES } from '../../base/common/auth/scopes.js';
import { invalidScope } from './oauth.errors.js';

/**
 * A requested `scope` (space separated) checked against what may be granted: unknown scopes and scopes
 * outside `allowed` are invalid_scope, whose description lists the allowed ones. Absent → all of `allowed`.
 */
export function resolveScopes(requested: string | undefined, allowed: string[]): string[] {
  if (requested === undefined) return [...allowed];
  const asked = [...new Set(requested.split(' ').filter((s) => s !== ''))];
  if (asked.some((s) => !SCOPE_NAMES.includes(s) || !allowed.includes(s))) throw invalidScope(allowed);
  return asked;
}
