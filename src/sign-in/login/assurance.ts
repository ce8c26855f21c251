/**
 * How sure the service is of who signed in: the sign-in authority's assurance levels, which OpenID Connect
 * reports as `acr` (the level) and `amr` (the methods, RFC 8176 values where one exists). Read from the
 * session's token record, which the authority marks when it issues it (SignInAuthority: a tenant's
 * authenticator vouched, or a second factor passed).
 *
 * The consent page's session, the only one an authorization is approved with, comes from three sign-ins: a
 * password on the page (`pwd`), that password and a second factor (`pwd otp mfa`: an authenticator-app, mailed
 * or recovery code), or a domain's single sign-on (`sso`: the tenant's IdP vouched; its own methods are not
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
/** Every `amr` value this service reports. */
export const AMR_VALUES: readonly string[] = ['pwd', 'otp', 'mfa', 'sso'];

export interface Assurance {
  acr: string;
  amr: string[];
}

/** The assurance of a session, from its token record's marks. */
export function assuranceOf(session: {
  is_mfa_authenticated: boolean;
  vouched_by_tenant: boolean;
}): Assurance {
  if (session.vouched_by_tenant) return { acr: ASSURANCE_LEVELS.federated, amr: ['sso'] };
  if (session.is_mfa_authenticated) return { acr: ASSURANCE_LEVELS.mfa, amr: ['pwd', 'otp', 'mfa'] };
  return { acr: ASSURANCE_LEVELS.password, amr: ['pwd'] };
}

/**
 * When the person behind a session last proved who they are: its record's `auth_time` (kept through
 * renewals), or its creation for a record from before that column. What `max_age` is measured against and
 * what id_tokens report as `auth_time`, so the two always agree.
 */
export function signedInAt(session: { auth_time: Date | null; date_created: Date }): Date {
  return new Date(session.auth_time ?? session.date_created);
}
