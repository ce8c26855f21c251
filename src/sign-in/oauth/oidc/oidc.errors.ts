import { defineErrors, message } from '../../../base/common/errors/error-codes.js';

export const OidcErrors = defineErrors('oidc', {
  /** The userinfo endpoint takes an access token an app obtained (OAuth), not a sign-in or a PAT. */
  NOT_AN_ACCESS_TOKEN: message(401, 'The userinfo endpoint takes an OAuth access token'),
});
