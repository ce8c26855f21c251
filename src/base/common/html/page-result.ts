import type { CookieOptions, Response } from 'express';
import { protectPage } from './page-headers.js';

/** A cookie a page sets, or clears (`value` null). */
export interface PageCookie {
  name: string;
  value: string | null;
  options: CookieOptions;
}

/**
 * What one step of a browser sign-in page answers (the consent flow, sign-in/oauth/consent/consent-flow.service.ts;
 * the mailed link's page, sign-in/login/email-login.service.ts): a status and either a rendered page (`html`)
 * or a 303 `redirect`, the cookies to set or clear, and where the page's form may post besides the service
 * (`formTarget`: the authorization request's `redirect_uri` when it was valid; the service's public base URL).
 * Applied to the response in one place, sendPage below.
 */
export interface PageResult {
  status: number;
  html?: string;
  redirect?: string;
  cookies?: PageCookie[];
  formTarget?: string;
  /** The page loads the service's own scripts from this URL (the passkey pages): its CSP allows them. */
  scripts?: string;
}

/** Applies a PageResult: every page forbids framing and is never cached; a redirect is a 303. */
export function sendPage(res: Response, page: PageResult): void {
  for (const c of page.cookies ?? []) {
    if (c.value === null) res.clearCookie(c.name, c.options);
    else res.cookie(c.name, c.value, c.options);
  }
  protectPage(res, page.formTarget, page.scripts);
  if (page.redirect !== undefined) return res.redirect(303, page.redirect);
  res
    .status(page.status)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .send(page.html ?? '');
}
