import { esc, page } from '../oauth/consent/html.js';

/** The page a browser sees when single sign-on did not work (never what exactly was wrong). */
export function ssoErrorPage(message: string): string {
  return page(
    'Single sign-on failed',
    `<h1>Single sign-on failed</h1><p class="error">${esc(message)}</p>` +
      '<p class="muted">Go back to the sign-in page and try again, or ask your administrator.</p>',
  );
}
