import { defineErrors } from '../common/errors/error-codes.js';

export const CredentialsErrors = defineErrors('credentials', {
  /** The credential invariant, for what an app's credentials can carry (its recorded ceiling). */
  BEYOND_APP_CEILING: {
    status: 403,
    body: (what: string, beyond: string[]) => [
      `You cannot ${what}: its credentials carry rights you do not hold (${beyond.join('; ')})`,
    ],
  },
});
