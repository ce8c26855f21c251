import type { UserDto } from './dto/user.dto.js';
import type { UserEntity } from './user.entity.js';

const iso = (d: Date | string) => new Date(d).toISOString();

/** A user as seen from one domain (where `isAdmin` applies); the password hash is never selected. */
export function userView(u: UserEntity, systemDomainId: string, isAdmin: boolean): UserDto {
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
    last_login: u.last_login ? iso(u.last_login) : null,
    date_created: iso(u.date_created),
    date_modified: iso(u.date_modified),
  };
}
