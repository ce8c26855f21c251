import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const TokensErrors = defineErrors('tokens', {
  NOT_FOUND: message(404, 'Token not found'),
  SUPER_ADMIN_TOKEN: message(403, 'Only a super administrator may revoke a super administrator’s tokens'),
  OAUTH_RENEWAL: message(403, 'OAuth access tokens are renewed with the refresh_token grant'),
  INVALID: fields(),
  /** The credential invariant: a caller cannot set up or obtain more than its own rights. */
  BEYOND_CALLER_RIGHTS: {
    status: 403,
    body: (what: string, beyond: string[]) => [
      `You cannot ${what}: that user has rights you do not hold (${beyond.join('; ')})`,
    ],
  },
});
