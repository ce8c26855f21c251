import { wireDate } from '../../base/common/http/wire-date.js';
import { canonical } from './asset-permissions.js';
import type { GroupAclDto, ObjectAclDto, UserAclDto } from './dto/acl.dto.js';

/** Whose entry an ACL route names: a user's or a group's. */
export type Principal = { kind: 'user'; id: string } | { kind: 'group'; id: string };

/** The principal's columns of an entry's key (after the object's): `{user_id}` or `{group_id}`. */
export function principalColumns(who: Principal): { user_id: string } | { group_id: string } {
  return who.kind === 'user' ? { user_id: who.id } : { group_id: who.id };
}

/** What an ACL row of assets or collections has in common. */
interface AclRow {
  user_id: string | null;
  group_id: string | null;
  permissions: string[];
  date_created: Date;
  date_modified: Date;
}

/**
 * The rules and shapes the entity ACLs of assets and of collections share (acls.service.ts,
 * collection-acls.service.ts), so that the two cannot drift apart: what a caller may not grant, the whole
 * ACL as `GET …/acl/{assets|collections}/{id}/` answers it, and one entry.
 */

/** Of `permissions`, those the caller does not hold, in canonical order (a grant of any of them is refused). */
export function notHeld(held: Set<string>, permissions: string[]): string[] {
  return canonical(permissions.filter((p) => !held.has(p)));
}

/** An object's whole ACL: no inherited or propagating entries exist here. */
export function objectAclOf(rows: AclRow[]): ObjectAclDto {
  return {
    users_acl: rows
      .filter((r) => r.user_id)
      .map((r) => ({ user_id: r.user_id!, permissions: canonical(r.permissions) })),
    groups_acl: rows
      .filter((r) => r.group_id)
      .map((r) => ({ group_id: r.group_id!, permissions: canonical(r.permissions) })),
    inherited_users_acl: [],
    inherited_groups_acl: [],
    propagating_users_acl: [],
    propagating_groups_acl: [],
  };
}

/** One entry as the ACL routes answer it. */
export function aclEntryOf(
  objectType: 'assets' | 'collections',
  objectKey: string,
  e: AclRow,
  who: Principal,
): UserAclDto | GroupAclDto {
  const base = {
    object_type: objectType,
    object_key: objectKey,
    permissions: canonical(e.permissions),
    date_created: wireDate(e.date_created),
    date_modified: wireDate(e.date_modified),
  };
  return who.kind === 'user' ? { user_id: who.id, ...base } : { group_id: who.id, ...base };
}
