import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The scripts of the sign-in pages, served from /API/auth/static/ under content-hashed names (the only
 * source a page's CSP allows for scripts, and only on the pages that use them: PageResult.scripts). Two:
 * the browser part of @simplewebauthn/browser (its UMD bundle, as published: it exposes
 * `SimpleWebAuthnBrowser`), and the pages' own passkey script below, which asks the service for the
 * ceremony's options, runs it and posts the result with the page's form.
 */

/**
 * The passkey button (and, where the browser offers it, passkeys in the email field's autofill): fetch the
 * request options from the form's `data-options` with the page's CSRF token, run navigator.credentials.get()
 * through SimpleWebAuthnBrowser, post the AuthenticationResponseJSON in the hidden form. Without WebAuthn (or
 * on a page reached by an IP address, which no RP ID can be), the passkey section stays hidden and the page
 * works as before.
 */
const PASSKEY_SCRIPT = `(function () {
  'use strict';
  var W = window.SimpleWebAuthnBrowser;
  var form = document.getElementById('passkey-form');
  var section = document.getElementById('passkey');
  if (!form || !section || !W || !W.browserSupportsWebAuthn()) return;
  // an IP address is never an RP ID: the service reached by one (not its public name) offers no passkeys
  var host = location.hostname;
  if (/^[0-9.]+$/.test(host) || host.charAt(0) === '[' || host.indexOf(':') >= 0) return;
  section.hidden = false;
  var status = document.getElementById('passkey-status');
  var button = document.getElementById('passkey-button');
  function options() {
    return fetch(form.getAttribute('data-options'), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ csrf: form.elements.csrf.value })
    }).then(function (r) {
      if (!r.ok) throw new Error('options ' + r.status);
      return r.json();
    });
  }
  function run(autofill) {
    return options()
      .then(function (o) { return W.startAuthentication({ optionsJSON: o, useBrowserAutofill: autofill }); })
      .then(function (response) {
        form.elements.response.value = JSON.stringify(response);
        form.submit();
      })
      .catch(function () {
        if (!autofill && status) status.textContent = 'The passkey sign-in did not complete. Try again, or sign in another way.';
      });
  }
  button.addEventListener('click', function () { run(false); });
  if (form.getAttribute('data-autofill') === '1' && W.browserSupportsWebAuthnAutofill)
    W.browserSupportsWebAuthnAutofill().then(function (yes) { if (yes) run(true); });
})();
`;

const require = createRequire(import.meta.url);

/** A script the pages load: its bytes and its content-hashed file name. */
export interface PageScript {
  name: string;
  file: string;
  text: string;
}

function script(name: string, text: string): PageScript {
  const hash = createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12);
  return { name, file: `${name}.${hash}.js`, text };
}

export const PAGE_SCRIPTS: readonly PageScript[] = [
  script(
    'simplewebauthn-browser',
    // the package exports only its modules: the bundle is found beside them (script/ → dist/bundle/)
    readFileSync(
      join(dirname(require.resolve('@simplewebauthn/browser')), '..', 'dist', 'bundle', 'index.umd.min.js'),
      'utf8',
    ),
  ),
  script('passkey', PASSKEY_SCRIPT),
];

/** Where the pages' scripts are served (the CSP's script source of the pages that load them). */
export const SCRIPTS_PATH = '/API/auth/static/';

/** The `<script>` elements of the passkey pages, in order (the library first). */
export function passkeyScriptTags(): string[] {
  return PAGE_SCRIPTS.map((s) => `${SCRIPTS_PATH}${s.file}`);
}
