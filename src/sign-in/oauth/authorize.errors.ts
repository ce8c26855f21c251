import { defineErrors, message } from '../../base/common/errors/error-codes.js';

/** The authorize API's answers (JSON, platform shape); the consent page shows the same problems as HTML. */
export const AuthorizeErrors = defineErrors('authorize', {
  LOGIN_ONLY: message(403, 'Only a signed-in user session can approve applications'),
  WRONG_DOMAIN: { status: 403, body: (text: string) => [text] },
  INVALID_REQUEST: { status: 400, body: (text: string) => [text] },
});
