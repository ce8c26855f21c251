import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const AssetsErrors = defineErrors('assets', {
  NOT_FOUND: message(404, 'Asset not found'),
  /** The caller may read the asset but lacks the permission the operation needs. */
  PERMISSION_DENIED: {
    status: 403,
    body: (permission: string) => [`You do not have the ${permission} permission on this asset`],
  },
  /** ACLs: a caller grants, or changes an entry carrying, only permissions they hold themselves. */
  PERMISSIONS_NOT_HELD: {
    status: 403,
    body: (permissions: string[]) => [
      `You cannot grant or change permissions you do not hold: ${permissions.join(', ')}`,
    ],
  },
  ACL_NOT_FOUND: message(404, 'ACL entry not found'),
  INVALID: fields(),
});
