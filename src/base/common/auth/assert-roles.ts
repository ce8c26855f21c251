import { AuthErrors } from './auth.errors.js';
import type { AuthContext } from './auth-context.js';
import type { Role } from './roles.js';
import { rolesAllowedByScopes } from './scopes.js';

/**
 * All restrictions must allow: the user holds every role and, for an OAuth token, the token's scopes bundle
 * every role. The guard applies it to a route's roles; services apply it to rules that depend on the body.
 */
export function assertRoles(auth: AuthContext, roles: readonly Role[]): void {
  const missing = roles.filter((r) => !auth.roles.has(r));
  if (missing.length > 0) throw AuthErrors.MISSING_ROLE(missing);
  if (auth.kind !== 'OAUTH') return;
  const allowed = rolesAllowedByScopes(auth.scopes ?? []);
  const uncovered = allowed === null ? [] : roles.filter((r) => !allowed.has(r));
  if (uncovered.length > 0) throw AuthErrors.SCOPES_DO_NOT_COVER(uncovered);
}
