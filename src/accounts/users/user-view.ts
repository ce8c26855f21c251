import type { UserBasicDto, UserDto, UserRolesDto } from './dto/user.dto.js';
import type { UserMemberships } from './user-memberships.js';

/** A user's own fields as one domain sees them; the published User adds their memberships (user-memberships.ts). */
export type UserCore = Omit<UserDto, keyof UserMemberships>;
import type { UserEntity } from '../../base/model/user.entity.js';
import { wireDate, wireDateOrNull } from '../../base/common/http/wire-date.js';
import { ALL_ROLES, type Role } from '../../base/common/auth/roles.js';

/** A user as seen from one domain (where `isAdmin` applies); the password hash is never selected. */
export function userView(u: UserEntity, systemDomainId: string, isAdmin: boolean): UserCore {
  return {
    id: u.id,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    status: u.status,
    type: u.type ?? 'STANDARD',
    is_admin: isAdmin || u.is_super_admin,
    is_super_admin: u.is_super_admin,
    system_domain_id: systemDomainId,
    last_login: wireDateOrNull(u.last_login),
    date_created: wireDate(u.date_created),
    date_modified: wireDate(u.date_modified),
  };
}

/** The reduced form for pickers: who someone is, not what they may do. */
export function userBasicView(u: UserEntity): UserBasicDto {
  return {
    id: u.id,
    email: u.email,
    first_name: u.first_name,
    last_name: u.last_name,
    type: u.type ?? 'STANDARD',
    status: u.status,
  };
}

/** Roles in the catalogue's order, so answers compare equal whatever set they were read from. */
export function rolesView(roles: ReadonlySet<Role>): UserRolesDto {
  const held = ALL_ROLES.filter((r) => roles.has(r));
  // the published model reads `objects`; this service's earlier clients read `roles`
  return { roles: held, objects: [...held] };
}
