import { AuthErrors } from '../../base/common/auth/auth.errors.js';
import { assertRoles } from '../../base/common/auth/assert-roles.js';
import { rolesAllowedByScopes } from '../../base/common/auth/scopes.js';
import type { GuardContext, GuardStep } from './guard-step.js';

/**
 * Administrator flags, roles, and for OAuth tokens the scopes: every scope the route names, scopes that
 * bundle every role the route needs (and the user must hold them), and on a route that needs no role
 * user_impersonation unless it declares `anyScope`.
 */
export class RolesScopesStep implements GuardStep {
  readonly name = 'roles and scopes';

  run({ auth, policy }: GuardContext): void {
    if (policy.superAdmin && !auth.isSuperAdmin) throw AuthErrors.SUPER_ADMIN_REQUIRED();
    if (policy.admin && !auth.isAdmin) throw AuthErrors.ADMIN_REQUIRED();
    const roles = policy.roles ?? [];
    assertRoles(auth, roles);
    if (auth.kind !== 'OAUTH') return;
    // the scopes a route names are needed by every OAuth token, user_impersonation too: `openid` on the
    // userinfo endpoint is about what the person allowed the app to learn, not a role
    const absent = (policy.scopes ?? []).filter((s) => !(auth.scopes ?? []).includes(s));
    if (absent.length > 0) throw AuthErrors.MISSING_SCOPE(absent);
    if (roles.length === 0 && !policy.anyScope && rolesAllowedByScopes(auth.scopes ?? []) !== null) {
      throw AuthErrors.USER_IMPERSONATION_REQUIRED();
    }
  }
}
