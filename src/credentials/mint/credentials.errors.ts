import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

/**
 * The apps feature's errors that the mint raises itself, checking an app's credentials (the `apps.*` codes):
 * AppsErrors includes these definitions, so they stay one family on the wire.
 */
export const APP_CREDENTIAL_ERRORS = {
  INVALID: fields(),
  PAT_ISSUER: message(403, 'Only an administrator or the acting user may issue this token'),
  APPROVER_NOT_ACTING_USER: message(
    403,
    'This application acts as another user: only that user may approve it',
  ),
};
export const AppCredentialErrors = defineErrors('apps', APP_CREDENTIAL_ERRORS);

export const CredentialsErrors = defineErrors('credentials', {
  /** The credential invariant, for what an app's credentials can carry (its recorded ceiling). */
  BEYOND_APP_CEILING: {
    status: 403,
    body: (what: string, beyond: string[]) => [
      `You cannot ${what}: its credentials carry rights you do not hold (${beyond.join('; ')})`,
    ],
  },
});
