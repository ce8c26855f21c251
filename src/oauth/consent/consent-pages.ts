import type { AuthorizationParams } from '../authorization-request.service.js';
import { esc, hiddenFields, page } from './html.js';

export const AUTHORIZATION_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

export function requestFields(p: AuthorizationParams): Record<string, string | undefined> {
  return Object.fromEntries(
    AUTHORIZATION_PARAMS.map((k) => [k, typeof p[k] === 'string' ? p[k] : undefined]),
  );
}

const INVALID_REQUEST_NOTE =
  "The application sent an invalid sign-in request, so you were not sent back to it. Contact the application's developer.";

export function errorPage(title: string, detail: string, note = INVALID_REQUEST_NOTE): string {
  return page(
    title,
    `<h1 class="error">${esc(title)}</h1><p>${esc(detail)}</p>\n<p class="muted">${esc(note)}</p>`,
  );
}

export function loginPage(appName: string, p: AuthorizationParams, csrf: string, error?: string): string {
  return page(
    'Sign in',
    `<h1>Sign in to continue to ${esc(appName)}</h1>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
<form method="post" action="/oauth/authorize/login">
${hiddenFields({ ...requestFields(p), csrf })}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button class="allow" type="submit">Sign in</button></div>
</form>
<form method="post" action="/oauth/authorize/login">
${hiddenFields({ ...requestFields(p), csrf })}
<label for="sso-email">Or single sign-on with your work address</label><input id="sso-email" name="email" type="email" autocomplete="username" required>
<div class="actions"><button class="deny" type="submit" name="sso" value="1">Continue with single sign-on</button></div>
</form>`,
  );
}

/** On to the identity provider (a link, not a redirect: the page's CSP keeps form posts on this origin). */
export function ssoRedirectPage(url: string): string {
  return page(
    'Single sign-on',
    `<meta http-equiv="refresh" content="0;url=${esc(url)}"><h1>Single sign-on</h1>
<p><a href="${esc(url)}">Continue to your identity provider</a></p>`,
  );
}

export function consentPage(
  app: { name: string; url: string | null },
  userEmail: string,
  scopes: { name: string; description: string }[],
  p: AuthorizationParams,
  csrf: string,
): string {
  const items = scopes.length
    ? scopes
        .map(
          (s) =>
            `<li><strong>${esc(s.description)}</strong> <span class="muted">(<code>${esc(s.name)}</code>)</span></li>`,
        )
        .join('')
    : '<li>Confirm your identity (no access to your data)</li>';
  return page(
    'Authorize',
    `<h1>${esc(app.name)} wants to access your account</h1>
<p class="muted">Signed in as ${esc(userEmail)}${app.url ? ` · <span>${esc(app.url)}</span>` : ''}</p>
<p>It will be able to:</p><ul>${items}</ul>
<form method="post" action="/oauth/authorize">
${hiddenFields({ ...requestFields(p), csrf })}
<div class="actions"><button class="deny" type="submit" name="decision" value="deny">Deny</button>
<button class="allow" type="submit" name="decision" value="allow">Allow</button></div>
</form>`,
  );
}

const OTP_LABELS: Record<string, string> = {
  TOTP: 'Code from your authenticator app',
  MAIL_2SV: 'Code we mailed you',
  RECOVERY: 'Recovery code',
};

/** The second step of the sign-in where the domain (or the user) asks for a second factor. */
export function secondFactorPage(
  appName: string,
  p: AuthorizationParams,
  csrf: string,
  accepted: string[],
  note?: { error?: string; info?: string },
): string {
  const options = accepted
    .map((t) => `<option value="${esc(t)}">${esc(OTP_LABELS[t] ?? t)}</option>`)
    .join('');
  return page(
    'Second factor',
    `<h1>Confirm it is you to continue to ${esc(appName)}</h1>
${note?.error ? `<p class="error" role="alert">${esc(note.error)}</p>` : ''}${note?.info ? `<p class="muted" role="status">${esc(note.info)}</p>` : ''}
<form method="post" action="/oauth/authorize/mfa">
${hiddenFields({ ...requestFields(p), csrf })}
<label for="otp_type">Method</label><select id="otp_type" name="otp_type">${options}</select>
<label for="otp">Code</label><input id="otp" name="otp" autocomplete="one-time-code" inputmode="numeric" maxlength="64">
<div class="actions">${accepted.includes('MAIL_2SV') ? '<button class="deny" type="submit" name="action" value="send">Email me a code</button>\n' : ''}<button class="allow" type="submit" name="action" value="verify">Verify</button></div>
</form>`,
  );
}
