import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const MfaErrors = defineErrors('mfa', {
  /**
   * One answer at the end of a sign-in for a wrong, used or expired code, a code of a method the domain does
   * not accept, a domain the user cannot sign in to, another person's email, and a locked account.
   */
  BAD_SECOND_FACTOR: message(401, 'Invalid email, domain or code'),
  /** Enrolment: the code does not prove the factor (wrong, used, expired, or the account is locked). */
  INVALID_CODE: fields(400),
  TOTP_ALREADY_CONFIGURED: message(409, 'An authenticator app is already configured; remove it first'),
  TOTP_NOT_STARTED: message(400, 'Start the authenticator enrolment first'),
  TOTP_NOT_CONFIGURED: message(400, 'No authenticator app is configured'),
  NO_METHOD_LEFT: fields(400),
});
