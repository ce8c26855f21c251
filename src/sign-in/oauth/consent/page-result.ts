import type { CookieOptions, Response } from 'express';
import { protectPage } from '../../../base/common/html/page-headers.js';

/** A cookie a page sets, or clears (`value` null). */
export interface PageCookie {
  name: string;
  value: string | null;
  options: CookieOptions;
}

/**
 * What one step of the browser sign-in answers (consent-flow.service.ts): a status and either a rendered
 * page (`html`) or a 303 `redirect`, the cookies to set or clear, and the authorization request's
 * `redirect_uri` when it was valid (the page's CSP lets the form post there). Applied to the response in
 * one place, sendPage below.
 */
export interface PageResult {
  status: number;
  html?: string;
  redirect?: string;
  cookies?: PageCookie[];
  formTarget?: string;
}

/** Applies a PageResult: every page forbids framing and is never cached; a redirect is a 303. */
export function sendPage(res: Response, page: PageResult): void {
  for (const c of page.cookies ?? []) {
    if (c.value === null) res.clearCookie(c.name, c.options);
    else res.cookie(c.name, c.value, c.options);
  }
  protectPage(res, page.formTarget);
  if (page.redirect !== undefined) return res.redirect(303, page.redirect);
  res
    .status(page.status)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .send(page.html ?? '');
}
