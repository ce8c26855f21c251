import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const UsersErrors = defineErrors('users', {
  NOT_FOUND: message(404, 'User not found'),
  EMAIL_TAKEN: message(409, 'A user with this email already exists'),
  INVALID: fields(),
  IS_ADMIN_ADMIN_ONLY: message(403, 'Only an administrator may change is_admin'),
  TYPE_ADMIN_ONLY: message(403, 'Only an administrator may change a user’s type'),
  SHARED_ACCOUNT: message(
    403,
    'This user also belongs to other domains: only they or a super administrator may change their name, email, password or status',
  ),
  DELETE_SELF: message(400, 'You cannot delete yourself'),
  PARTNER_CUSTOMER_ONLY: message(
    403,
    'Only an administrator of the customer domain may grant or revoke its access',
  ),
  PARTNER_NOT_FOUND: message(404, 'Partner domain not found'),
  PARTNER_NOT_PARTNER: message(
    400,
    'The partner domain must be of type PARTNER, and not the customer domain',
  ),
  PARTNER_NO_ACCESS: message(404, 'This partner domain has no access to this customer domain'),
  ROLE_NOT_HELD: message(404, 'The user does not hold this role'),
  PHOTO_MISSING: message(
    400,
    'Send one image: a raw image/* body, or multipart/form-data in the field "photo" or "file"',
  ),
  PHOTO_TYPE: message(400, 'The photo must be a PNG, JPEG, GIF or WebP image'),
  PHOTO_TOO_LARGE: message(413, 'The photo must be at most 1 MiB'),
  NO_PHOTO: message(404, 'No photo'),
  /** BillingLimits: one more user of a type would exceed the domain's limit for it (seat-limits.ts). */
  SEAT_LIMIT: {
    status: 400,
    body: (field: string, limit: number) => [
      `The domain's billing limit ${field} (${limit}) is reached: no more users of this type can be added`,
    ],
  },
  SUPER_ADMIN_RANK: message(403, 'Only a super administrator may change a super administrator'),
  ADMIN_RANK: message(403, 'Only an administrator may change an administrator'),
  UNLOCK_ADMIN_ONLY: message(
    403,
    'Only an administrator of the user’s domain or a super administrator may lift a user’s sign-in locks',
  ),
  UNLOCK_SHARED_ACCOUNT: message(
    403,
    'This user also belongs to other domains: only a super administrator may lift their sign-in locks',
  ),
});
