import { ApiError } from '../../errors/api-error.js';
import { assertRoles } from '../assert-roles.js';
import { rolesAllowedByScopes } from '../scopes.js';
import type { GuardContext, GuardStep } from './guard-step.js';

/**
 * Administrator flags, roles, and for OAuth tokens the scopes: the scopes must bundle every role the route
 * needs (and the user must hold them), and a route that needs no role needs user_impersonation unless it
 * declares `anyScope`.
 */
export class RolesScopesStep implements GuardStep {
  readonly name = 'roles and scopes';

  run({ auth, policy }: GuardContext): void {
    if (policy.superAdmin && !auth.isSuperAdmin) throw ApiError.forbidden('Requires a super administrator');
    if (policy.admin && !auth.isAdmin) throw ApiError.forbidden('Requires an administrator');
    const roles = policy.roles ?? [];
    assertRoles(auth, roles);
    if (auth.kind === 'OAUTH' && rolesAllowedByScopes(auth.scopes ?? []) !== null) {
      const absent = (policy.scopes ?? []).filter((s) => !(auth.scopes ?? []).includes(s));
      if (absent.length > 0) throw ApiError.forbidden(`Missing scope: ${absent.join(', ')}`);
      if (roles.length === 0 && !policy.anyScope) {
        throw ApiError.forbidden('This route needs the user_impersonation scope');
      }
    }
  }
}
