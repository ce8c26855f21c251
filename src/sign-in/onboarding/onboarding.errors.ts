import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const OnboardingErrors = defineErrors('onboarding', {
  CODE_EXISTS: message(409, 'Code already exists'),
  CODE_NOT_FOUND: message(404, 'Referral code does not exist'),
  CODE_PROTECTED: message(400, 'This referral code is marked do_not_delete and cannot be deleted'),
  CODE_EXPIRED: message(400, 'Referral code expired'),
  /** A caller who may not create domains with this code; the same answer whether or not the code exists. */
  CODE_FORBIDDEN: message(403, 'You may not create domains with this referral code'),
  ACCOUNT_EXISTS: message(
    400,
    'An account with this email already exists; sign in, or reset its password, and ask to be invited',
  ),
  REGISTRATION_DISABLED: message(403, 'Registration is switched off'),
  REGISTERED_CONCURRENTLY: message(409, 'This email was registered concurrently; try again'),
  /** 419 with the wording the other mailed links use: expired, used, or replaced by a newer registration. */
  LINK_EXPIRED: message(419, 'Verification link expired or already used'),
  LINK_NOT_FOUND: message(404, 'Verification link not found'),
  CONTENT_NOT_FOUND: message(404, 'Content does not exist'),
  CONTENT_EXISTS: message(409, 'Content with this slug or page_route already exists'),
  INVALID: fields(),
});
