import type { Role } from './roles.js';

export interface ScopeDefinition {
  name: string;
  description: string;
  /** The roles the scope lets a token use; null: every role the user holds. */
  roles: Role[] | null;
}

/** The spec's scopes, each a bundle of roles. */
export const SCOPES: readonly ScopeDefinition[] = [
  {
    name: 'assets:read',
    description:
      'Search and read assets, files, formats, proxies, versions, metadata, jobs, transfers and shares',
    roles: ['can_read_assets'],
  },
  {
    name: 'assets:write',
    description:
      'Create and update assets, upload, create formats and versions, edit metadata, create transcode jobs and shares',
    roles: ['can_read_assets', 'can_write_assets'],
  },
  {
    name: 'assets:delete',
    description: 'Delete and purge assets, files, formats, versions and related metadata',
    roles: ['can_read_assets', 'can_delete_assets'],
  },
  {
    name: 'collections:read',
    description: 'Search and read collections, portfolios, metadata and shares',
    roles: ['can_read_collections'],
  },
  {
    name: 'collections:write',
    description: 'Create and update collections and portfolios, edit their metadata, create shares',
    roles: ['can_read_collections', 'can_write_collections'],
  },
  {
    name: 'collections:delete',
    description: 'Delete and purge collections and portfolios',
    roles: ['can_read_collections', 'can_delete_collections'],
  },
  // OpenID Connect: who the person is, for an app that signs people in. No API role: only the userinfo
  // endpoint and the id_token answer them (docs/oauth.md, "Signing people in with OpenID Connect").
  {
    name: 'openid',
    description: 'Confirm who you are: sign you in with your account',
    roles: [],
  },
  {
    name: 'profile',
    description: 'See your name',
    roles: [],
  },
  {
    name: 'email',
    description: 'See your email address and whether it is confirmed',
    roles: [],
  },
  {
    name: 'user_impersonation',
    description: 'Everything the signed-in user can do; intended for internal apps only',
    roles: null,
  },
];

export const SCOPE_NAMES = SCOPES.map((s) => s.name);

/** The OpenID Connect scopes: they name claims about the person, never an API role. */
export const OPENID_SCOPE = 'openid';
export const IDENTITY_SCOPES: readonly string[] = ['openid', 'profile', 'email'];

/** Roles an OAuth token may exercise: null means unrestricted (user_impersonation). */
export function rolesAllowedByScopes(scopes: readonly string[]): Set<Role> | null {
  const allowed = new Set<Role>();
  for (const name of scopes) {
    const def = SCOPES.find((s) => s.name === name);
    if (!def) continue;
    if (def.roles === null) return null;
    def.roles.forEach((r) => allowed.add(r));
  }
  return allowed;
}
