import { rolesAllowedByScopes, SCOPE_NAMES } from './scopes.js';

describe('scopes', () => {
  it('lists the seven scopes of the spec, and OpenID Connect’s three', () => {
    expect(SCOPE_NAMES).toEqual([
      'assets:read',
      'assets:write',
      'assets:delete',
      'collections:read',
      'collections:write',
      'collections:delete',
      'openid',
      'profile',
      'email',
      'user_impersonation',
    ]);
  });
  it('OpenID Connect’s scopes bundle no role', () => {
    expect(rolesAllowedByScopes(['openid', 'profile', 'email'])?.size).toBe(0);
    expect([...(rolesAllowedByScopes(['openid', 'assets:read']) ?? [])]).toEqual(['can_read_assets']);
  });
  it('bundles roles', () => {
    expect([...(rolesAllowedByScopes(['assets:read']) ?? [])]).toEqual(['can_read_assets']);
    expect(rolesAllowedByScopes(['assets:read', 'user_impersonation'])).toBeNull();
    expect(rolesAllowedByScopes([])?.size).toBe(0);
  });
});
