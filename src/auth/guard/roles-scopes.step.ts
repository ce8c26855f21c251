import { AuthErrors } from '../../base/common/auth/auth.errors.js';
import { assertRoles } from '../../base/common/auth/assert-roles.js';
import { IDENTITY_SCOPES, rolesAllowedByScopes } from '../../base/common/auth/scopes.js';
import type { AuthenticatedOptions } from '../../base/common/auth/authenticated.decorator.js';
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
    if (roles.length === 0 && !admitsRoleless(policy, auth.scopes ?? [])) {
      throw AuthErrors.USER_IMPERSONATION_REQUIRED();
    }
  }
}

/**
 * Whether an OAuth token with `scopes` passes a route that needs no role: user_impersonation always; a route
 * that names scopes (checked above: userinfo's `openid`); an `anyScope` route (who am I, this token) for a
 * token with an API scope. A token of OpenID Connect's scopes alone (`openid`, `profile`, `email`) says who the
 * person is through the id_token and userinfo only: it would otherwise read the person's profile from
 * `users/current/` whether or not `profile` and `email` were allowed.
 */
function admitsRoleless(policy: AuthenticatedOptions, scopes: readonly string[]): boolean {
  if (rolesAllowedByScopes(scopes) === null) return true;
  if ((policy.scopes ?? []).length > 0) return true;
  const identityOnly = scopes.length > 0 && scopes.every((s) => IDENTITY_SCOPES.includes(s));
  return policy.anyScope === true && !identityOnly;
}
