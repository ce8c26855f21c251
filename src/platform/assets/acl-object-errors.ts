import { message } from '../../base/common/errors/error-codes.js';

/**
 * The error definitions assets and collections share (assets.errors.ts, collections.errors.ts), each under
 * its own feature's codes: the object not found, a permission on it the caller lacks, and its ACL entries.
 */
export function aclObjectErrors(name: 'Asset' | 'Collection') {
  return {
    NOT_FOUND: message(404, `${name} not found`),
    /** The caller may read the object but lacks the permission the operation needs. */
    PERMISSION_DENIED: {
      status: 403,
      body: (permission: string) => [
        `You do not have the ${permission} permission on this ${name.toLowerCase()}`,
      ],
    },
    /** ACLs: a caller grants, or changes an entry carrying, only permissions they hold themselves. */
    PERMISSIONS_NOT_HELD: {
      status: 403,
      body: (permissions: string[]) => [
        `You cannot grant or change permissions you do not hold: ${permissions.join(', ')}`,
      ],
    },
    ACL_NOT_FOUND: message(404, 'ACL entry not found'),
  };
}
