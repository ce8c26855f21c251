import { defineTemplate, LAYOUT, renderPage } from '../../base/common/html/templates.js';

defineTemplate(
  '@sso-error',
  `${LAYOUT}<h1>Single sign-on failed</h1><p class="error"><%= it.message %></p><p class="muted">Go back to the sign-in page and try again, or ask your administrator.</p>`,
);

/** The page a browser sees when single sign-on did not work (never what exactly was wrong). */
export function ssoErrorPage(message: string): string {
  return renderPage('@sso-error', 'Single sign-on failed', { message });
}
