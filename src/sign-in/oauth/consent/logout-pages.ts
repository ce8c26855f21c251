import { defineTemplate, LAYOUT, renderPage } from '../../../base/common/html/templates.js';

defineTemplate(
  '@logout-confirm',
  `${LAYOUT}<h1>Sign out?</h1>
<p>You are signed in as <%= it.email %><% if (it.appName) { %>; <%= it.appName %> asks to sign you out<% } %>.</p>
<form method="post" action="/oauth/logout">
<%~ include('@hidden', { fields: it.fields }) %>
<div class="actions"><button class="allow" type="submit" name="confirm" value="1">Sign out</button></div>
</form>`,
);

/** RP-initiated logout without an id_token_hint: the person confirms (a POST with the page's CSRF token). */
export function logoutConfirmPage(
  email: string,
  appName: string | null,
  fields: Record<string, string | undefined>,
): string {
  return renderPage('@logout-confirm', 'Sign out', { email, appName, fields });
}

defineTemplate(
  '@signed-out',
  `${LAYOUT}<h1>You are signed out</h1><p class="muted">You can close this window.</p>`,
);

export function signedOutPage(): string {
  return renderPage('@signed-out', 'Signed out', {});
}
