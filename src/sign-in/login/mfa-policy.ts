/** A domain's second-factor policy (system_domains.mfa_required, mfa_methods). */
export interface MfaPolicy {
  mfa_required: boolean;
  mfa_methods: string[];
}

/** The second factors: an authenticator app, codes by mail, and passkeys (WebAuthn, src/sign-in/passkeys/). */
export const MFA_METHODS = ['TOTP', 'MAIL_2SV', 'WEBAUTHN'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];
/** The factors passed with a code (a passkey is passed with an assertion: auth/webauthn/login/). */
export const OTP_TYPES = ['TOTP', 'MAIL_2SV', 'RECOVERY'] as const;
export type OtpType = (typeof OTP_TYPES)[number];

/** What a user has of each factor: their user_mfa columns (null: no row), and whether they hold a passkey. */
export interface UserFactorColumns {
  totp_confirmed_at: Date | null;
  mail_2sv_enabled: boolean | null;
  /** At least one passkey is registered (a flagged one too: its factor stays owed until it is removed). */
  webauthn?: boolean | null;
}

/** The factors a user has confirmed (TOTP once validated; MAIL_2SV once enabled; WEBAUTHN with a passkey). */
export function confirmedMethods(row: UserFactorColumns | null): MfaMethod[] {
  const out: MfaMethod[] = [];
  if (row?.totp_confirmed_at) out.push('TOTP');
  if (row?.mail_2sv_enabled) out.push('MAIL_2SV');
  if (row?.webauthn) out.push('WEBAUTHN');
  return out;
}

/**
 * Whether signing in to `domain` owes a second factor: always once the user has confirmed one (whatever the
 * domain), else when the domain requires one.
 */
export function factorOwed(domain: Pick<MfaPolicy, 'mfa_required'>, configured: MfaMethod[]): boolean {
  return configured.length > 0 || domain.mfa_required;
}

/**
 * Whether a user-verified passkey sign-in (two factors in one: the device and its PIN or biometric) owes
 * `domain` nothing more: always, unless the domain requires a second factor and does not count passkeys
 * among its `mfa_methods` (then the domain's own methods complete it).
 */
export function passkeySatisfies(domain: MfaPolicy): boolean {
  return !domain.mfa_required || domain.mfa_methods.includes('WEBAUTHN');
}

/** The second factors `domain` counts: its `mfa_methods` when it requires one, else every method. */
function allowedMethods(domain: MfaPolicy): MfaMethod[] {
  return domain.mfa_required ? MFA_METHODS.filter((m) => domain.mfa_methods.includes(m)) : [...MFA_METHODS];
}

/** Whether the user's passkey passes the second factor of a sign-in to `domain`. */
export function passkeyAccepted(domain: MfaPolicy, configured: MfaMethod[]): boolean {
  return configured.includes('WEBAUTHN') && allowedMethods(domain).includes('WEBAUTHN');
}

/**
 * The codes that pass the factor for `domain`: a domain that requires a factor accepts its `mfa_methods`
 * only. The user's confirmed factors among those count (RECOVERY stands in for TOTP); a user who confirmed
 * none of them (a passkey included) may use MAIL_2SV (a code to their own address) where it is allowed, so a
 * member of a domain that requires a factor can sign in before enrolling. Empty: no code passes the factor
 * here (a domain that allows TOTP only, and a user without TOTP; or a user whose factor here is a passkey).
 */
export function acceptedOtpTypes(domain: MfaPolicy, configured: MfaMethod[]): OtpType[] {
  const allowed = allowedMethods(domain);
  const usable = configured.filter((m) => allowed.includes(m));
  if (usable.length === 0) return allowed.includes('MAIL_2SV') ? ['MAIL_2SV'] : [];
  return usable.flatMap((m): OtpType[] =>
    m === 'TOTP' ? ['TOTP', 'RECOVERY'] : m === 'MAIL_2SV' ? [m] : [],
  );
}

/** Whether the user can pass the factor of `domain` with what they have (a code, or a passkey). */
export function factorPassable(domain: MfaPolicy, configured: MfaMethod[]): boolean {
  return acceptedOtpTypes(domain, configured).length > 0 || passkeyAccepted(domain, configured);
}
