import { defineTemplate, LAYOUT, renderPage } from '../../base/common/html/templates.js';

defineTemplate(
  '@email-login',
  `${LAYOUT}<h1>Sign in</h1><p>Continue to sign in with the link you received by mail. The link works once.</p>
<form method="post" action="<%= it.action %>"><div class="actions"><button class="allow" type="submit">Sign in</button></div></form>`,
);

/** The page a mailed sign-in link opens: one button that posts the link's secret (`action`). */
export function emailLoginPage(action: string): string {
  return renderPage('@email-login', 'Sign in', { action });
}
