/**
 * How sure the service is of who signed in: the sign-in authority's assurance levels, which OpenID Connect
 * reports as `acr` (the level) and `amr` (the methods, RFC 8176 values where one exists). Read from the
 * session's token record, which the authority marks when it issues it (SignInAuthority: a tenant's
 * authenticator vouched, or a second factor passed).
 *
 * The consent page's session, the only one an authorization is approved with, comes from these sign-ins: a
 * password on the page (`pwd`), that password and a second factor (`pwd otp mfa`: an authenticator-app, mailed
 * or recovery code; `pwd hwk mfa`: a passkey), a passkey alone (`hwk user mfa`: the device and its user's
 * PIN or biometric), or a domain's single sign-on (`sso`: the tenant's IdP vouched; its own methods are not
 * the service's to report).
 */
export const ASSURANCE_LEVELS = {
  /** One factor the service checked itself (a password). */
  password: 'urn:portcullis:acr:password',
  /** A password and a second factor, both checked by the service. */
  mfa: 'urn:portcullis:acr:mfa',
  /** A tenant's authenticator (a domain's SAML IdP) vouched for the person. */
  federated: 'urn:portcullis:acr:federated',
} as const;

export const ACR_VALUES: readonly string[] = Object.values(ASSURANCE_LEVELS);
/**
 * Every `amr` value this service reports: a password, a one-time code, several factors, a tenant's single
 * sign-on; and a passkey's (its key in a device's hardware, `hwk`, or synced between devices, `swk`; the
 * authenticator tested the user's presence, `user`).
 */
export const AMR_VALUES: readonly string[] = ['pwd', 'otp', 'mfa', 'sso', 'hwk', 'swk', 'user'];

export interface Assurance {
  acr: string;
  amr: string[];
}

/**
 * The assurance of a session, from its token record's marks, and the methods the authority recorded where the
 * marks do not tell them (`amr`: a passkey alone `["hwk","user","mfa"]`, or after a password
 * `["pwd","hwk","mfa"]`; `swk` for a synced passkey).
 */
export function assuranceOf(session: {
  is_mfa_authenticated: boolean;
  vouched_by_tenant: boolean;
  amr?: string[] | null;
}): Assurance {
  if (session.vouched_by_tenant) return { acr: ASSURANCE_LEVELS.federated, amr: ['sso'] };
  const level = session.is_mfa_authenticated ? ASSURANCE_LEVELS.mfa : ASSURANCE_LEVELS.password;
  if (session.amr && session.amr.length > 0) return { acr: level, amr: [...session.amr] };
  if (session.is_mfa_authenticated) return { acr: level, amr: ['pwd', 'otp', 'mfa'] };
  return { acr: level, amr: ['pwd'] };
}

/**
 * When the person behind a session last proved who they are: its record's `auth_time` (kept through
 * renewals), or its creation for a record from before that column. What `max_age` is measured against and
 * what id_tokens report as `auth_time`, so the two always agree.
 */
export function signedInAt(session: { auth_time: Date | null; date_created: Date }): Date {
  return new Date(session.auth_time ?? session.date_created);
}
