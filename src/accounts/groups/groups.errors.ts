import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const GroupsErrors = defineErrors('groups', {
  NOT_FOUND: message(404, 'Group not found'),
  MEMBER_NOT_FOUND: message(404, 'Group member not found'),
  NAME_TAKEN: message(409, 'A group with this name already exists in this domain'),
  INVALID: fields(),
  ROLES_NOT_HELD: { status: 403, body: (what: string, roles: string[]) => [`${what}: ${roles.join(', ')}`] },
});
