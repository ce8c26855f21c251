import { defineErrors, message } from '../../base/common/errors/error-codes.js';

export const LoginErrors = defineErrors('login', {
  /** One answer for an unknown email, a wrong password and an inactive user. */
  BAD_CREDENTIALS: message(401, 'Invalid email or password'),
});
