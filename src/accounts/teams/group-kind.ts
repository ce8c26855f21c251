import type { GroupKind } from '../../base/model/group.entity.js';
import { TeamsErrors } from './teams.errors.js';

/** What differs between the group-like kinds this module serves: their words, their roles and their events. */
export interface KindSpec {
  kind: Exclude<GroupKind, 'GROUP'>;
  /** The access-checker entity and the webhook realm of the thing and of its memberships. */
  entity: 'team' | 'role_group';
  memberRealm: 'team_member' | 'role_group_member';
  carriesRoles: boolean;
  notFound: () => Error;
}

export const TEAM: KindSpec = {
  kind: 'TEAM',
  entity: 'team',
  memberRealm: 'team_member',
  carriesRoles: false,
  notFound: () => TeamsErrors.TEAM_NOT_FOUND(),
};

export const ROLE_GROUP: KindSpec = {
  kind: 'ROLE_GROUP',
  entity: 'role_group',
  memberRealm: 'role_group_member',
  carriesRoles: true,
  notFound: () => TeamsErrors.ROLE_GROUP_NOT_FOUND(),
};
