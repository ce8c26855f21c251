import { defineErrors, fields, message } from '../errors/error-codes.js';

/** What the guard and the token lookup answer. 401s tell a client to sign in again; 403s do not. */
export const AuthErrors = defineErrors('auth', {
  NO_CREDENTIALS: message(401, 'Authentication credentials were not provided'),
  INVALID_TOKEN: message(401, 'Invalid token'),
  TOKEN_EXPIRED: message(401, 'Token has expired'),
  TOKEN_REVOKED: message(401, 'Token has been revoked'),
  APP_ID_MISMATCH: message(401, 'App-ID does not match the token'),
  USER_INACTIVE: message(401, 'User is inactive'),
  NOT_A_MEMBER: message(401, 'User is no longer a member of this domain'),
  DOMAIN_DEACTIVATED: message(401, 'System domain is deactivated'),
  DOMAIN_FROZEN: message(403, 'System domain is frozen: it is read-only until it is reactivated'),
  KIND_NOT_ACCEPTED: message(401, 'This credential cannot be used here'),
  NO_POLICY: message(403, 'This route declares no access policy'),
  SUPER_ADMIN_REQUIRED: message(403, 'Requires a super administrator'),
  ADMIN_REQUIRED: message(403, 'Requires an administrator'),
  MISSING_ROLE: { status: 403, body: (roles: string[]) => [`Missing role: ${roles.join(', ')}`] },
  SCOPES_DO_NOT_COVER: {
    status: 403,
    body: (roles: string[]) => [`The token's scopes do not cover: ${roles.join(', ')}`],
  },
  MISSING_SCOPE: { status: 403, body: (scopes: string[]) => [`Missing scope: ${scopes.join(', ')}`] },
  USER_IMPERSONATION_REQUIRED: message(403, 'This route needs the user_impersonation scope'),
  /** ACL: unknown, malformed, another tenant's, or another owner's entity ids answer alike. */
  NOT_FOUND: { status: 404, body: (label: string) => [`${label} not found`] },
  /** Account factors belong to their person: not to an app's token, an OAuth grant or a PAT acting as them. */
  ACCOUNT_CHANGE_OWN_SIGN_IN: message(
    403,
    'A token minted for an application cannot change its user’s email or password, or their second factors: sign in as yourself',
  ),
  ACCOUNT_CHANGE_RECENT_SIGN_IN: {
    status: 403,
    body: (minutes: number) => [
      `This account change needs a recent sign-in: sign in again with your password (valid for ${minutes} minutes) or with a second factor`,
    ],
  },
  /** A tenant's IdP vouched for this session, and the account reaches beyond that tenant (SignInAuthority). */
  ACCOUNT_CHANGE_SERVICE_SIGN_IN: {
    status: 403,
    body: (minutes: number) => [
      `Your organisation’s single sign-on cannot change this account, which it does not own alone: sign in with the service’s own password (and second factor) and make the change within ${minutes} minutes`,
    ],
  },
  INVALID: fields(),
});
