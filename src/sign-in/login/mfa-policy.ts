/** A domain's second-factor policy (system_domains.mfa_required, mfa_methods). */
export interface MfaPolicy {
  mfa_required: boolean;
  mfa_methods: string[];
}

export const MFA_METHODS = ['TOTP', 'MAIL_2SV'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];
export const OTP_TYPES = ['TOTP', 'MAIL_2SV', 'RECOVERY'] as const;
export type OtpType = (typeof OTP_TYPES)[number];

/** The factors a user has confirmed (TOTP once validated; MAIL_2SV once enabled), from their user_mfa columns
 * (null or absent: no row, nothing confirmed). */
export function confirmedMethods(
  row: { totp_confirmed_at: Date | null; mail_2sv_enabled: boolean | null } | null,
): MfaMethod[] {
  const out: MfaMethod[] = [];
  if (row?.totp_confirmed_at) out.push('TOTP');
  if (row?.mail_2sv_enabled) out.push('MAIL_2SV');
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
 * The codes that pass the factor for `domain`: a domain that requires a factor accepts its `mfa_methods`
 * only. The user's confirmed factors among those count (RECOVERY stands in for TOTP); a user who confirmed
 * none of them may use MAIL_2SV (a code to their own address) where it is allowed, so a member of a domain
 * that requires a factor can sign in before enrolling. Empty: the factor cannot be passed here (a domain
 * that allows TOTP only, and a user without TOTP).
 */
export function acceptedOtpTypes(domain: MfaPolicy, configured: MfaMethod[]): OtpType[] {
  const allowed = domain.mfa_required
    ? MFA_METHODS.filter((m) => domain.mfa_methods.includes(m))
    : MFA_METHODS;
  const usable = configured.filter((m) => allowed.includes(m));
  if (usable.length === 0) return allowed.includes('MAIL_2SV') ? ['MAIL_2SV'] : [];
  return usable.flatMap((m): OtpType[] => (m === 'TOTP' ? ['TOTP', 'RECOVERY'] : [m]));
}
