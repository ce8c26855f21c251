import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const DirectoryErrors = defineErrors('directories', {
  NOT_FOUND: message(404, 'Directory does not exist'),
  INVALID: fields(),
  /** Every refused directory sign-in: one answer (unknown user, wrong password, disabled account, refusal). */
  BAD_CREDENTIALS: message(401, 'Invalid email or password'),
  UNAVAILABLE: message(503, 'The directory did not answer in time; try again later'),
});
