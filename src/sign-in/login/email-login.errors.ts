import { defineErrors, message } from '../../base/common/errors/error-codes.js';

export const EmailLoginErrors = defineErrors('email_login', {
  /** No link with this secret was ever issued (or it is long gone). */
  NOT_FOUND: message(404, 'Sign-in link does not exist'),
  /** 419: the link was valid once but is no more (expired, used, replaced by a newer one, user deactivated). */
  LINK_EXPIRED: message(419, 'Sign-in link expired or already used'),
  /** The user has no domain left to sign in to. */
  NO_DOMAIN: message(401, 'No active system domain to sign in to'),
});
