import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const CollectionsErrors = defineErrors('collections', {
  NOT_FOUND: message(404, 'Collection not found'),
  /** The caller may read the collection but lacks the permission the operation needs. */
  PERMISSION_DENIED: {
    status: 403,
    body: (permission: string) => [`You do not have the ${permission} permission on this collection`],
  },
  /** ACLs: a caller grants, or changes an entry carrying, only permissions they hold themselves. */
  PERMISSIONS_NOT_HELD: {
    status: 403,
    body: (permissions: string[]) => [
      `You cannot grant or change permissions you do not hold: ${permissions.join(', ')}`,
    ],
  },
  ACL_NOT_FOUND: message(404, 'ACL entry not found'),
  CONTENT_NOT_FOUND: message(404, 'The object is not in this collection'),
  /** An object to add to a collection that the caller may not read, or not of the domain. */
  OBJECT_NOT_FOUND: message(404, 'Object not found'),
  INVALID: fields(),
});
