import { defineErrors, fields, message } from '../../base/common/errors/error-codes.js';

export const PasskeyErrors = defineErrors('passkeys', {
  NOT_FOUND: message(404, 'Passkey does not exist'),
  INVALID: fields(400),
  /** A registration the verifier refused (wrong challenge, origin or RP ID, a malformed attestation). */
  REGISTRATION_REFUSED: fields(400),
  ALREADY_REGISTERED: message(409, 'This passkey is already registered'),
  TOO_MANY: message(409, 'An account holds at most 25 passkeys: remove one first'),
  /**
   * One answer for every refused passkey sign-in: an unknown, removed, flagged or another account's
   * passkey, a used or expired challenge, a wrong origin or RP ID, a bad signature, a counter that went back,
   * a missing user verification, a locked account, a domain that does not count passkeys.
   */
  NOT_ACCEPTED: message(401, 'Passkey not accepted'),
  /** The consent page's passkey button with a forged or stale CSRF token: reload the page. */
  PAGE_EXPIRED: message(403, 'The page expired; reload it and try again'),
  /** Removing another person's passkey: the same rank rules as lifting their locks (users/{id}/unlock/). */
  ADMIN_ONLY: message(403, 'Only an administrator of the user’s domain may remove their passkeys'),
  SHARED_ACCOUNT: message(
    403,
    'The user also belongs to other domains: only a super administrator may remove their passkeys',
  ),
  SUPER_ADMIN_RANK: message(403, 'Only a super administrator may remove a super administrator’s passkeys'),
});
