/**
 * Routes whose path carries a secret (a one-time link, an external-auth secret). `:secret` marks the
 * segment. A route that puts a secret in its path is listed here, so that no log line ever carries it.
 */
export const SECRET_PATH_ROUTES = [
  '/API/auth/v1/apps/external/auth/:secret',
  '/API/auth/v1/auth/email/login/:secret',
  '/API/auth/v1/invitation/complete/:secret',
  '/API/auth/v1/invitation/:secret',
  '/API/auth/v1/password/reset/:secret',
  '/API/auth/v1/password/:secret/checks',
  '/API/auth/v1/registrations/verify/:secret',
  '/login/email/:secret',
] as const;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Prefix matches, case-insensitive, on the path with repeated slashes folded: the segment is redacted
 * whatever follows it (a trailing slash, more segments of a mistyped URL). The first matching route wins,
 * so `/invitation/complete/{secret}` is tried before `/invitation/{secret}`.
 */
const PATTERNS = SECRET_PATH_ROUTES.map((route) => {
  const [before, after] = route.split(':secret');
  return new RegExp(`^(${escape(before)})[^/]+(${after ? escape(after) + '(?=/|$)' : ''})`, 'i');
});

/** The path (no query string) with every secret segment replaced by `[redacted]`. */
export function redactPath(path: string): string {
  const folded = path.replace(/\/{2,}/g, '/');
  for (const p of PATTERNS) {
    if (p.test(folded)) return folded.replace(p, '$1[redacted]$2');
  }
  return path;
}
