import { defineErrors, message } from '../../base/common/errors/error-codes.js';
import { APP_CREDENTIAL_ERRORS } from '../mint/credentials.errors.js';

export const AppsErrors = defineErrors('apps', {
  NOT_FOUND: message(404, 'App not found'),
  ...APP_CREDENTIAL_ERRORS,
  ACTING_USER_ADMIN_ONLY: message(
    403,
    'Only an administrator may change an application’s acting user or client type',
  ),
  /** A change to an app whose acting user holds rights the caller does not (AppsService.update/remove/…). */
  ACTING_USER_OUTRANKS_CALLER: {
    status: 403,
    body: (beyond: string[]) => [
      `You cannot change this application: it acts as a user with rights you do not hold (${beyond.join('; ')})`,
    ],
  },
  NO_CLIENT_SECRET: message(400, 'Only confidential OAuth clients have a client secret'),
  PAT_FOR_OAUTH_APP: message(400, 'OAuth apps obtain tokens from the OAuth token endpoint'),
  SECRET_USED: message(409, 'This secret has already been used'),
  INSTANCE_APPROVED: message(409, 'This instance is already approved'),
  PENDING_AUTHORIZATION_NOT_FOUND: message(404, 'Pending authorization not found'),
  PENDING_APPROVAL_NOT_FOUND: message(404, 'Pending approval not found'),
  INSTANCE_NOT_FOUND: message(404, 'Approved app instance not found'),
  INSTANCE_OWNER: message(403, 'Only the approving user or an administrator'),
});
