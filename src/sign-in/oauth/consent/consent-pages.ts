import { defineTemplate, LAYOUT, renderPage } from '../../../base/common/html/templates.js';
import { passkeyScriptTags } from '../../../base/common/html/page-scripts.js';
import type { OtpType } from '../../login/mfa-policy.js';
import type { AuthorizationParams } from '../authorization-request.service.js';
import { AUTHORIZATION_PARAMS as QUERY_PARAMS } from '../dto/authorize.dto.js';

/** The authorization request's parameters the pages carry: the query's, and OpenID Connect's sign-in ones. */
export const AUTHORIZATION_PARAMS = [...QUERY_PARAMS, 'prompt', 'max_age', 'login_hint'] as const;

export function requestFields(p: AuthorizationParams): Record<string, string | undefined> {
  return Object.fromEntries(
    AUTHORIZATION_PARAMS.map((k) => [k, typeof p[k] === 'string' ? p[k] : undefined]),
  );
}

const INVALID_REQUEST_NOTE =
  "The application sent an invalid sign-in request, so you were not sent back to it. Contact the application's developer.";

// Every `<%= … %>` is escaped by the engine (common/html/templates.ts); `<%~ include(…) %>` inserts a
// partial's output, itself escaped.
defineTemplate(
  '@error',
  `${LAYOUT}<h1 class="error"><%= it.title %></h1><p><%= it.detail %></p>
<p class="muted"><%= it.note %></p>`,
);

export function errorPage(title: string, detail: string, note = INVALID_REQUEST_NOTE): string {
  return renderPage('@error', title, { detail, note });
}

/**
 * The passkey part of a page: a button (hidden until the page's script finds WebAuthn in the browser) and the
 * form its result is posted with; `autofill`: the email field offers passkeys too (conditional mediation).
 */
defineTemplate(
  '@passkey',
  `<section id="passkey" hidden>
<div class="actions"><button class="<%= it.primary ? 'allow' : 'deny' %>" type="button" id="passkey-button"><%= it.label %></button></div>
<p class="error" role="alert" id="passkey-status"></p>
<form method="post" action="/oauth/authorize/passkey" id="passkey-form" data-options="/oauth/authorize/passkey/options" data-autofill="<%= it.autofill ? '1' : '0' %>">
<%~ include('@hidden', { fields: it.fields }) %><input type="hidden" name="response" value="">
</form></section>
<% for (const src of it.scripts) { %><script src="<%= src %>"></script><% } %>`,
);

/** The data of the `@passkey` partial. */
function passkeyPart(
  label: string,
  fields: Record<string, string | undefined>,
  autofill: boolean,
  primary: boolean,
) {
  return { label, fields, autofill, primary, scripts: passkeyScriptTags() };
}

defineTemplate(
  '@login',
  `${LAYOUT}<h1>Sign in to continue to <%= it.appName %></h1>
<% if (it.error) { %><p class="error" role="alert"><%= it.error %></p><% } %>
<form method="post" action="/oauth/authorize/login">
<%~ include('@hidden', { fields: it.fields }) %>
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username webauthn" value="<%= it.email %>" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button class="allow" type="submit">Sign in</button></div>
</form>
<%~ include('@passkey', it.passkey) %>
<form method="post" action="/oauth/authorize/login">
<%~ include('@hidden', { fields: it.fields }) %>
<label for="sso-email">Or single sign-on with your work address</label><input id="sso-email" name="email" type="email" autocomplete="username" value="<%= it.email %>" required>
<div class="actions"><button class="deny" type="submit" name="sso" value="1">Continue with single sign-on</button></div>
</form>
<% for (const p of it.choices.providers) { %><form method="post" action="/oauth/authorize/login">
<%~ include('@hidden', { fields: it.fields }) %><input type="hidden" name="provider_id" value="<%= p.id %>">
<div class="actions"><button class="deny" type="submit">Continue with <%= p.name %></button></div>
</form><% } %>
<% for (const d of it.choices.directories) { %><form method="post" action="/oauth/authorize/login">
<%~ include('@hidden', { fields: it.fields }) %><input type="hidden" name="directory" value="form">
<div class="actions"><button class="deny" type="submit">Continue with <%= d.name %></button></div>
</form><% } %>`,
);

/** The "Continue with …" choices of the application's domain (its OpenID providers and directory). */
export interface SignInChoices {
  providers: { id: string; name: string }[];
  directories: { name: string }[];
}
const NO_CHOICES: SignInChoices = { providers: [], directories: [] };

/**
 * The sign-in form; `email` pre-fills it (an OpenID Connect `login_hint`); `choices` adds the application's
 * domain's "Continue with …" buttons.
 */
export function loginPage(
  appName: string,
  p: AuthorizationParams,
  csrf: string,
  error?: string,
  email?: string | null,
  choices: SignInChoices = NO_CHOICES,
): string {
  const fields = { ...requestFields(p), csrf };
  return renderPage('@login', 'Sign in', {
    appName,
    error,
    email: email ?? '',
    choices,
    fields,
    passkey: passkeyPart('Sign in with a passkey', fields, true, false),
  });
}

defineTemplate(
  '@directory-login',
  `${LAYOUT}<h1>Sign in to continue to <%= it.appName %></h1>
<p class="muted">With your <%= it.directory %> account</p>
<% if (it.error) { %><p class="error" role="alert"><%= it.error %></p><% } %>
<form method="post" action="/oauth/authorize/login">
<%~ include('@hidden', { fields: it.fields }) %><input type="hidden" name="directory" value="1">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" value="<%= it.email %>" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button class="allow" type="submit">Sign in</button></div>
</form>`,
);

/** The password form of a company directory (the email step routed there, or "Continue with …"). */
export function directoryLoginPage(
  appName: string,
  directory: string,
  p: AuthorizationParams,
  csrf: string,
  email: string,
  error?: string,
): string {
  return renderPage('@directory-login', 'Sign in', {
    appName,
    directory,
    email,
    error,
    fields: { ...requestFields(p), csrf },
  });
}

defineTemplate(
  '@sso-redirect',
  `${LAYOUT}<meta http-equiv="refresh" content="0;url=<%= it.url %>"><h1>Single sign-on</h1>
<p><a href="<%= it.url %>">Continue to your identity provider</a></p>`,
);

/** On to the identity provider (a link, not a redirect: the page's CSP keeps form posts on this origin). */
export function ssoRedirectPage(url: string): string {
  return renderPage('@sso-redirect', 'Single sign-on', { url });
}

defineTemplate(
  '@consent',
  `${LAYOUT}<h1><%= it.app.name %> wants to access your account</h1>
<p class="muted">Signed in as <%= it.userEmail %><% if (it.app.url) { %> · <span><%= it.app.url %></span><% } %></p>
<p>It will be able to:</p><ul><% if (it.scopes.length) { for (const s of it.scopes) { %><li><strong><%= s.description %></strong> <span class="muted">(<code><%= s.name %></code>)</span></li><% } } else { %><li>Confirm your identity (no access to your data)</li><% } %></ul>
<form method="post" action="/oauth/authorize">
<%~ include('@hidden', { fields: it.fields }) %>
<div class="actions"><button class="deny" type="submit" name="decision" value="deny">Deny</button>
<button class="allow" type="submit" name="decision" value="allow">Allow</button></div>
</form>`,
);

export function consentPage(
  app: { name: string; url: string | null },
  userEmail: string,
  scopes: { name: string; description: string }[],
  p: AuthorizationParams,
  csrf: string,
): string {
  return renderPage('@consent', 'Authorize', {
    app,
    userEmail,
    scopes,
    fields: { ...requestFields(p), csrf },
  });
}

const OTP_LABELS: Record<string, string> = {
  TOTP: 'Code from your authenticator app',
  MAIL_2SV: 'Code we mailed you',
  RECOVERY: 'Recovery code',
};

defineTemplate(
  '@second-factor',
  `${LAYOUT}<h1>Confirm it is you to continue to <%= it.appName %></h1>
<% if (it.error) { %><p class="error" role="alert"><%= it.error %></p><% } %><% if (it.info) { %><p class="muted" role="status"><%= it.info %></p><% } %>
<% if (it.passkey) { %><%~ include('@passkey', it.passkey) %><% } %>
<% if (it.options.length) { %><form method="post" action="/oauth/authorize/mfa">
<%~ include('@hidden', { fields: it.fields }) %>
<label for="otp_type">Method</label><select id="otp_type" name="otp_type"><% for (const o of it.options) { %><option value="<%= o.value %>"><%= o.label %></option><% } %></select>
<label for="otp">Code</label><input id="otp" name="otp" autocomplete="one-time-code" inputmode="numeric" maxlength="64">
<div class="actions"><% if (it.canMail) { %><button class="deny" type="submit" name="action" value="send">Email me a code</button>
<% } %><button class="allow" type="submit" name="action" value="verify">Verify</button></div>
</form><% } %>`,
);

/** What passes the owed factor: the code types, and whether the user's passkey does. */
export interface OwedFactor {
  codes: OtpType[];
  passkey: boolean;
}

/** The second step of the sign-in where the domain (or the user) asks for a second factor. */
export function secondFactorPage(
  appName: string,
  p: AuthorizationParams,
  csrf: string,
  owed: OwedFactor,
  note?: { error?: string; info?: string },
): string {
  const fields = { ...requestFields(p), csrf };
  return renderPage('@second-factor', 'Second factor', {
    appName,
    error: note?.error,
    info: note?.info,
    options: owed.codes.map((t) => ({ value: t, label: OTP_LABELS[t] ?? t })),
    canMail: owed.codes.includes('MAIL_2SV'),
    fields,
    passkey: owed.passkey ? passkeyPart('Use your passkey', fields, false, owed.codes.length === 0) : null,
  });
}
