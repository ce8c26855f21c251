import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const OidcProviderErrors = defineErrors('oidc_providers', {
  NOT_FOUND: message(404, 'OpenID provider does not exist'),
  INVALID: fields(),
  NO_PROVIDER: message(404, 'No OpenID provider serves this email domain'),
  /** Every refused return from a provider: one answer, whatever was wrong (the log says what). */
  REFUSED: message(401, 'The sign-in with the OpenID provider was refused'),
  CODE_INVALID: message(401, 'The sign-in code is invalid, expired or already used'),
  UNAVAILABLE: message(503, 'The OpenID provider did not answer in time; try again later'),
});
