import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const PasswordsErrors = defineErrors('passwords', {
  /** A link that never existed (or was cleaned up long after it stopped working), as invitations answer. */
  LINK_NOT_FOUND: message(404, 'Reset password link not found'),
  /** 419 with the wording the spec's clients read: the link expired, was used, or a newer one replaced it. */
  RESET_EXPIRED: message(419, 'Authentication token expired'),
  CHECKS_EXPIRED: message(419, 'Reset password token expired'),
  /** A password that fails the checks, or a mismatch: `{errors: {field: message}}`. */
  INVALID: fields(),
});
