import { rolesAllowedByScopes, SCOPE_NAMES } from './scopes.js';

describe('scopes', () => {
  it('lists the seven scopes of the spec', () => {
    expect(SCOPE_NAMES).toEqual([
      'assets:read',
      'assets:write',
      'assets:delete',
      'collections:read',
      'collections:write',
      'collections:delete',
      'user_impersonation',
    ]);
  });
  it('bundles roles', () => {
    expect([...(rolesAllowedByScopes(['assets:read']) ?? [])]).toEqual(['can_read_assets']);
    expect(rolesAllowedByScopes(['assets:read', 'user_impersonation'])).toBeNull();
    expect(rolesAllowedByScopes([])?.size).toBe(0);
  });
});
