import type { Response } from 'express';

/**
 * The headers of every page a browser signs in through (the consent page, the mailed link's page): never
 * cached, never framed, no referrer, no sniffing, and a CSP that lets its forms post only to the service and
 * to `formTarget` (a URL: its origin; another scheme, e.g. an app's custom scheme: that scheme). It runs no
 * script, except on a page that loads the service's own (`scripts`: the URL of the pages' scripts,
 * page-scripts.ts), which may then run those and fetch from the service only.
 */
export function protectPage(res: Response, formTarget?: string, scripts?: string): Response {
  const target = formTarget ? new URL(formTarget) : null;
  const allowed = target ? (target.protocol.startsWith('http') ? target.origin : target.protocol) : '';
  const run = scripts ? ` script-src ${scripts}; connect-src 'self';` : '';
  return res
    .setHeader('Cache-Control', 'no-store')
    .setHeader('Pragma', 'no-cache')
    .setHeader('X-Frame-Options', 'DENY')
    .setHeader('Referrer-Policy', 'no-referrer')
    .setHeader('X-Content-Type-Options', 'nosniff')
    .setHeader(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'unsafe-inline';${run} form-action 'self' ${allowed}; frame-ancestors 'none'; base-uri 'none'`.replace(
        /\s+;/,
        ';',
      ),
    );
}
