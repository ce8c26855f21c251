/**
 * Where a browser may be sent back after a sign-in at a tenant's authenticator (SAML, OpenID): a path of the
 * service (`/…`, never `//…` or with a backslash), the service's own origin, or the domain's web app (the
 * origin of its base_url). Anything else, and nothing, becomes the domain's web app (else the service's root).
 */
export function trustedReturn(
  publicBaseUrl: string,
  domainBaseUrl: string | null,
  wanted: string | null | undefined,
): string {
  const own = new URL(publicBaseUrl).origin;
  const app = originOf(domainBaseUrl ?? '');
  const fallback = app ? domainBaseUrl! : `${own}/`;
  if (!wanted || wanted.length > 2000) return fallback;
  if (wanted.startsWith('/') && !wanted.startsWith('//') && !wanted.includes('\\')) return `${own}${wanted}`;
  const origin = originOf(wanted);
  return origin && (origin === own || origin === app) ? wanted : fallback;
}

/** The http(s) origin of a URL, or null. */
export function originOf(u: string): string | null {
  try {
    const url = new URL(u);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** `url` with one more query parameter. */
export function withParam(url: string, name: string, value: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${name}=${encodeURIComponent(value)}`;
}
