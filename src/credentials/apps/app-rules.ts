import { AppsErrors } from './apps.errors.js';
import type { AppType, OAuthClientType } from '../../base/model/app.entity.js';

export interface AppShape {
  type: AppType;
  oauth_client_type: OAuthClientType | null;
  default_user_id: string | null;
  allowed_scopes: string[];
  redirect_uris: string[];
  allowed_origins: string[];
  /** OpenID Connect RP-initiated logout targets: the same rules as redirect URIs. */
  post_logout_redirect_uris: string[];
}

/**
 * Redirect URIs (and post-logout redirect URIs, which the end-session endpoint matches just as exactly):
 * absolute, no fragment (RFC 6749 §3.1.2: not even an empty `#`), an http(s) URI written with
 * its `//` (the URL parser would read `https:evil.example` as `https://evil.example/`, so what was registered
 * and what is reached would look different), no user information, no script-like or local scheme, blank
 * entries dropped. Stored in the URL standard's serialisation (scheme and host lower case, no default port,
 * `/` for an empty path, percent-encoding), duplicates removed after it: the authorization request must
 * send exactly that form, and the app's answer shows it.
 */
export function normalizeRedirectUris(values: string[]): { uris: string[]; error?: string } {
  const uris: string[] = [];
  for (const raw of values) {
    const v = raw.trim();
    if (v === '') continue;
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      return { uris, error: `"${v}" is not a full URL` };
    }
    if (u.hash || v.includes('#')) return { uris, error: `"${v}" must not contain a fragment` };
    const web = u.protocol === 'http:' || u.protocol === 'https:';
    if (web && !/^https?:\/\//i.test(v)) return { uris, error: `"${v}" must be written scheme://host/…` };
    if (web && !u.host) return { uris, error: `"${v}" has no host` };
    if (['javascript:', 'data:', 'file:', 'vbscript:', 'blob:'].includes(u.protocol)) {
      return { uris, error: `"${v}" uses a forbidden scheme` };
    }
    // credentials in a URI end up in logs and Referer headers, and `https://trusted@evil` misleads readers
    if (u.username || u.password) return { uris, error: `"${v}" must not contain user information` };
    if (!uris.includes(u.href)) uris.push(u.href);
  }
  return { uris };
}

/** Origins: scheme://host[:port] only (what browsers send in Origin). */
export function normalizeOrigins(values: string[]): { origins: string[]; error?: string } {
  const origins: string[] = [];
  for (const raw of values) {
    const v = raw.trim().replace(/\/$/, '');
    if (v === '') continue;
    let u: URL;
    try {
      u = new URL(v);
    } catch {
      return { origins, error: `"${v}" is not an origin` };
    }
    if (!['http:', 'https:'].includes(u.protocol) || u.origin !== v) {
      return { origins, error: `"${v}" is not an origin (scheme://host[:port], no path)` };
    }
    if (!origins.includes(v)) origins.push(v);
  }
  return { origins };
}

/** The four scenarios of the spec, checked on the resulting app after create or update. */
export function checkScenario(app: AppShape): void {
  const errors: Record<string, string> = {};
  if (app.type === 'PAT') {
    if (app.oauth_client_type) errors.oauth_client_type = 'applies to OAuth apps only';
    if (app.allowed_scopes.length) errors.allowed_scopes = 'applies to OAuth apps only';
    if (app.redirect_uris.length) errors.redirect_uris = 'applies to OAuth apps only';
    if (app.allowed_origins.length) errors.allowed_origins = 'applies to public OAuth apps only';
    if (app.post_logout_redirect_uris.length) {
      errors.post_logout_redirect_uris = 'applies to OAuth apps only';
    }
  } else {
    if (!app.oauth_client_type)
      errors.oauth_client_type = 'is required for OAuth apps (confidential or public)';
    const backendService = app.oauth_client_type === 'confidential' && app.default_user_id !== null;
    if (!backendService && app.oauth_client_type && app.redirect_uris.length === 0) {
      errors.redirect_uris = 'at least one redirect URI is required for authorization-code apps';
    }
    if (app.oauth_client_type === 'confidential' && app.allowed_origins.length) {
      errors.allowed_origins = 'applies to public (browser or device) apps only';
    }
  }
  if (Object.keys(errors).length) throw AppsErrors.INVALID(errors);
}
