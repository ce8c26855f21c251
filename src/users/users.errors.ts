import { defineErrors, fields, message } from '../common/errors/error-codes.js';

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
  CREDENTIALS_NEED_SIGN_IN: message(
    403,
    'A token minted for an application cannot change its user’s email or password: sign in as yourself',
  ),
  DELETE_SELF: message(400, 'You cannot delete yourself'),
  SUPER_ADMIN_RANK: message(403, 'Only a super administrator may change a super administrator'),
  ADMIN_RANK: message(403, 'Only an administrator may change an administrator'),
});
