/** Every role the service checks. Administrators of a domain hold all DOMAIN_ROLES there. */
export const DOMAIN_ROLES = [
  'can_read_apps',
  'can_write_apps',
  'can_delete_apps',
  'can_read_tokens',
  'can_delete_tokens',
  'can_read_users',
  'can_write_users',
  'can_delete_users',
  'can_read_groups',
  'can_write_groups',
  'can_delete_groups',
  'can_read_assets',
  'can_write_assets',
  'can_delete_assets',
  'can_read_collections',
  'can_write_collections',
  'can_delete_collections',
] as const;

/** Roles only super administrators hold: they act across domains. */
export const SUPER_ROLES = [
  'can_read_system_domains',
  'can_write_system_domains',
  'can_delete_system_domains',
] as const;

export const ALL_ROLES = [...DOMAIN_ROLES, ...SUPER_ROLES] as const;
export type Role = (typeof ALL_ROLES)[number];

export function isRole(value: string): value is Role {
  return (ALL_ROLES as readonly string[]).includes(value);
}

export function effectiveRoles(
  user: { is_admin: boolean; is_super_admin: boolean },
  groupRoles: string[],
): Set<Role> {
  if (user.is_super_admin) return new Set(ALL_ROLES);
  if (user.is_admin) return new Set(DOMAIN_ROLES);
  return new Set(groupRoles.filter(isRole));
}
